import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

/** As the web build writes it (apps/web/vite.config.ts), in short. */
const builtManifest = {
  name: "Memory Box",
  short_name: "Memory Box",
  start_url: "/",
  display: "standalone",
  icons: [{ src: "/pwa-192x192.png", sizes: "192x192", type: "image/png", purpose: "any" }],
};

describe.each(testEngines())("the installed app's name is the box's (ADR 0065) on %s", (engine) => {
  let testApp: TestApp;
  let webDir: string;
  let ann: TestMember;

  beforeAll(async () => {
    webDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-web-"));
    await fs.writeFile(path.join(webDir, "index.html"), "<!doctype html><title>Memory Box</title>");
    const manifest = JSON.stringify(builtManifest);
    const file = path.join(webDir, "manifest.webmanifest");
    await fs.writeFile(file, manifest);
    await fs.writeFile(`${file}.br`, brotliCompressSync(manifest));
    await fs.writeFile(`${file}.gz`, gzipSync(manifest));
    testApp = await createTestApp(engine, { webDir, env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(testApp, "ann.manifest@memory-box.test", "Ann");
  });
  afterAll(async () => {
    await testApp.close();
    await fs.rm(webDir, { recursive: true, force: true });
  });

  const manifest = async (headers: Record<string, string> = {}) => {
    const response = await testApp.app.inject({ method: "GET", url: "/manifest.webmanifest", headers });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("application/manifest+json");
    expect(response.headers["cache-control"]).toBe("no-cache");
    return response.json<Record<string, unknown>>();
  };
  const setName = async (name: string | null) => {
    const response = await testApp.app.inject({
      method: "PUT",
      url: "/api/v1/box",
      headers: ann.headers,
      payload: { name, cover_photo_id: null, together_since: null },
    });
    expect(response.statusCode, response.body).toBe(200);
  };

  it("is the build's while the box has no name, whatever the browser accepts", async () => {
    expect(await manifest()).toEqual(builtManifest);
    expect(await manifest({ "accept-encoding": "br, gzip" })).toEqual(builtManifest);
  });

  it("takes the box's name once an owner sets one, and only the name: icons and the rest stay as built", async () => {
    await setName("Ann & Ben");
    expect(await manifest({ "accept-encoding": "br, gzip" })).toEqual({
      ...builtManifest,
      name: "Ann & Ben",
      short_name: "Ann & Ben",
    });
    await setName(null);
    expect(await manifest()).toEqual(builtManifest);
  });
});
