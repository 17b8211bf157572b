import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { Writable } from "node:stream";
import type { HealthResponse } from "@memory-box/contract";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../test/test-app";
import { testEngines } from "../test/test-database";

describe.each(testEngines())("the server on %s", (engine) => {
  let testApp: TestApp;
  let webDir: string;
  const logLines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    webDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-web-"));
    await fs.mkdir(path.join(webDir, "assets"));
    await fs.writeFile(path.join(webDir, "index.html"), "<!doctype html><title>Memory Box</title>");
    await fs.writeFile(path.join(webDir, "assets", "index-Bq3x9.js"), "console.log('app')");
    await fs.writeFile(path.join(webDir, "favicon.svg"), "<svg/>");
    // As the build leaves them: compressed copies next to the script (vite.config.ts).
    const script = path.join(webDir, "assets", "index-Bq3x9.js");
    await fs.writeFile(`${script}.br`, brotliCompressSync("console.log('app')"));
    await fs.writeFile(`${script}.gz`, gzipSync("console.log('app')"));
    const logStream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split("\n").filter(Boolean))
          logLines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    testApp = await createTestApp(engine, { webDir, logStream, env: { STORAGE_MIN_FREE_MB: "0" } });
    // Routes that exist only to exercise the shared error handling.
    testApp.app.post(
      "/api/test/echo",
      { schema: { body: z.object({ title: z.string().min(1) }).strict() } },
      (request) => request.body,
    );
    testApp.app.get("/api/test/crash", () => {
      throw new Error("database password is hunter2");
    });
    await testApp.app.ready();
  });
  afterAll(async () => {
    await testApp.close();
    await fs.rm(webDir, { recursive: true, force: true });
  });

  it("reports health with the database, storage and mail checked", async () => {
    const response = await testApp.app.inject({ method: "GET", url: "/api/health" });
    expect(response.statusCode).toBe(200);
    const body = response.json<HealthResponse>();
    expect(body).toEqual({
      status: "ok",
      database: "ok",
      storage: "ok",
      storage_free_mb: body.storage_free_mb,
      mail: "ok",
      mail_queue: { waiting: 0, oldest_waiting_seconds: null, last_failure_at: null },
      version: testApp.config.version,
    });
    expect(body.storage_free_mb).toBeGreaterThan(0);
    expect(response.headers["cache-control"]).toBe("no-store");
  });

  it("warns of storage running out of space before uploads fail, still answering 200", async () => {
    const cramped = await createTestApp(engine, { env: { STORAGE_MIN_FREE_MB: String(2 ** 40) } });
    try {
      const response = await cramped.app.inject({ method: "GET", url: "/api/health" });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ status: "degraded", database: "ok", storage: "low_space" });
      expect(response.json<{ storage_free_mb: number }>().storage_free_mb).toBeLessThan(2 ** 40);
    } finally {
      await cramped.close();
    }
  });

  it.each(["/api/v1/nope", "/api", "/auth/v1/nope", "/storage/v1/object/x", "/rest/v1/rpc/nope"])(
    "answers unknown API path %s with a JSON 404, never the web app",
    async (url) => {
      // The auth API answers in the Supabase Auth envelope, which has `code` for current clients.
      const response = await testApp.app.inject({ method: "GET", url, headers: { "x-supabase-api-version": "2024-01-01" } });
      expect(response.statusCode).toBe(404);
      expect(response.headers["content-type"]).toMatch(/^application\/json/);
      expect(response.json()).toMatchObject({ code: "not_found" });
    },
  );

  it("serves index.html for client routes, revalidated on every load", async () => {
    for (const url of ["/", "/memory/42", "/auth?next=%2F", "/nope"]) {
      const response = await testApp.app.inject({ method: "GET", url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers["content-type"], url).toMatch(/^text\/html/);
      expect(response.headers["cache-control"], url).toBe("no-cache");
      expect(response.body).toContain("<title>Memory Box</title>");
    }
  });

  it("serves hashed assets as immutable and other files revalidated", async () => {
    const asset = await testApp.app.inject({ method: "GET", url: "/assets/index-Bq3x9.js" });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const favicon = await testApp.app.inject({ method: "GET", url: "/favicon.svg" });
    expect(favicon.headers["cache-control"]).toBe("no-cache");
  });

  it("sends the build's brotli or gzip copy of a script as the browser accepts, else the plain file", async () => {
    const fetchScript = (acceptEncoding?: string) =>
      testApp.app.inject({
        method: "GET",
        url: "/assets/index-Bq3x9.js",
        headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
      });
    const brotli = await fetchScript("gzip, deflate, br");
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(brotli.headers.vary).toContain("accept-encoding");
    expect(brotli.headers["content-type"]).toMatch(/javascript/);
    expect(brotli.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe("console.log('app')");
    const gzipped = await fetchScript("gzip");
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe("console.log('app')");
    const plain = await fetchScript();
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe("console.log('app')");
  });

  it("answers a missing asset and a non-GET page request with a 404, not the web app", async () => {
    expect((await testApp.app.inject({ method: "POST", url: "/memory/42" })).statusCode).toBe(404);
    const missing = await testApp.app.inject({ method: "GET", url: "/assets/gone-123.js" });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers["content-type"]).toMatch(/^application\/json/);
  });

  it.each(["/", "/api/health", "/api/v1/no-such-route"])("sends security headers with every answer (%s)", async (url) => {
    const response = await testApp.app.inject({ method: "GET", url });
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(response.headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(response.headers["content-security-policy"]).not.toContain("upgrade-insecure-requests");
    expect(response.headers["strict-transport-security"]).toMatch(/^max-age=\d+/);
    expect(response.headers["x-frame-options"]).toBe("SAMEORIGIN");
    expect(response.headers["referrer-policy"]).toBe("no-referrer");
    expect(response.headers["cross-origin-opener-policy"]).toBe("same-origin");
    expect(response.headers["x-powered-by"]).toBeUndefined();
  });

  it("rejects an invalid body with 400 and the fields at fault", async () => {
    const response = await testApp.app.inject({ method: "POST", url: "/api/test/echo", payload: { title: "", extra: 1 } });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ code: string; details: { path: string }[] }>();
    expect(body.code).toBe("validation_failed");
    expect(body.details.map((detail) => detail.path)).toContain("body.title");
  });

  it("rejects malformed JSON and a wrong content type with JSON errors", async () => {
    const malformed = await testApp.app.inject({
      method: "POST",
      url: "/api/test/echo",
      headers: { "content-type": "application/json" },
      payload: "{oops",
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: "bad_json" });
    const wrongType = await testApp.app.inject({
      method: "POST",
      url: "/api/test/echo",
      headers: { "content-type": "text/csv" },
      payload: "a,b",
    });
    expect(wrongType.statusCode).toBe(415);
    expect(wrongType.json()).toMatchObject({ code: "unsupported_media_type" });
  });

  it("answers an unexpected failure with a bare 500 that leaks nothing", async () => {
    const response = await testApp.app.inject({ method: "GET", url: "/api/test/crash" });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      code: "unexpected_failure",
      message: "Something went wrong on our side. Please try again.",
    });
    expect(response.body).not.toContain("hunter2");
  });

  it("logs one line per request with its request id, and no credentials", async () => {
    logLines.length = 0;
    const response = await testApp.app.inject({
      method: "GET",
      url: "/api/health?access_token=secret-token&limit=5",
      headers: { authorization: "Bearer secret-token", cookie: "sb=secret-token", "x-request-id": "req-abc.1" },
    });
    expect(response.headers["x-request-id"]).toBe("req-abc.1");
    const requestLines = logLines.filter((line) => line.reqId === "req-abc.1");
    expect(requestLines).toHaveLength(1);
    expect(requestLines[0]).toMatchObject({
      msg: "request",
      method: "GET",
      statusCode: 200,
      url: "/api/health?access_token=[redacted]&limit=5",
    });
    expect(JSON.stringify(logLines)).not.toContain("secret-token");
  });

  it("makes its own request id when the client's is unsafe to log", async () => {
    const response = await testApp.app.inject({ method: "GET", url: "/api/health", headers: { "x-request-id": "evil\nline" } });
    expect(response.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("publishes its OpenAPI description and docs", async () => {
    const openapi = await testApp.app.inject({ method: "GET", url: "/api/openapi.json" });
    expect(openapi.statusCode).toBe(200);
    expect(openapi.json<{ paths: Record<string, unknown> }>().paths).toHaveProperty("/api/health");
    const docs = await testApp.app.inject({ method: "GET", url: "/api/docs" });
    expect([200, 302]).toContain(docs.statusCode);
  });
});

describe("without a built web app", () => {
  it("explains how to build it instead of serving a blank page", async () => {
    const testApp = await createTestApp("sqlite");
    try {
      const response = await testApp.app.inject({ method: "GET", url: "/memory/1" });
      expect(response.statusCode).toBe(404);
      expect(response.json<{ message: string }>().message).toContain("npm run build");
    } finally {
      await testApp.close();
    }
  });
});
