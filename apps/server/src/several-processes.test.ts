import type { Memory, MemoryPage } from "@memory-box/contract";
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipartContentType, multipartPayload } from "../test/multipart";
import { startServerProcess, type ServerProcess } from "../test/server-process";
import { startTestS3Server, type TestS3Server } from "../test/s3-test-server";
import { createTestDatabase, type TestDatabase } from "../test/test-database";
import { availableEngines } from "../test/test-matrix";

// Issue #37, more than one process: two Memory Box processes (src/main.ts, as `npm start` runs it)
// on one PostgreSQL database and one S3 store, behind a proxy that sends each request to the next
// one in turn, all on loopback. What one process writes, the other serves at once; live streams,
// rate limits and sign-outs hold across both.

const password = "correct horse battery";
/** Low enough to reach in a few requests; each process alone would allow it again. */
const verifyLimit = 4;

/** One server process on the shared database and store. */
function startProcess(databaseUrl: string, storageUrl: string, sharedEnv: Record<string, string>): Promise<ServerProcess> {
  return startServerProcess({ ...sharedEnv, DATABASE_URL: databaseUrl, STORAGE_URL: storageUrl });
}

/**
 * A reverse proxy on loopback that sends each request to the next process in turn (`targets`,
 * filled once they listen), streaming both ways (the live stream too).
 */
async function roundRobinProxy(targets: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  let next = 0;
  const server = http.createServer((request, response) => {
    const target = new URL(request.url ?? "/", targets[next++ % targets.length]);
    const upstream = http.request(target, { method: request.method, headers: request.headers, agent: false }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on("error", () => response.destroy());
    request.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.skipIf(!availableEngines.includes("postgres"))("two server processes on one PostgreSQL and one S3 store", () => {
  let database: TestDatabase;
  let s3: TestS3Server;
  let one: ServerProcess;
  let two: ServerProcess;
  let proxy: { url: string; close: () => Promise<void> };
  let token: string;
  let headers: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase("postgres", { migrated: true });
    if (database.config.engine !== "postgres") throw new Error("a PostgreSQL database was asked for");
    s3 = await startTestS3Server();
    const targets: string[] = [];
    proxy = await roundRobinProxy(targets);
    const sharedEnv = {
      // The address members use, the same for every process: tokens name it as their issuer.
      PUBLIC_URL: proxy.url,
      AUTH_INVITE_ONLY: "false",
      AUTH_AUTOCONFIRM: "true",
      AUTH_RATE_LIMIT_VERIFY: String(verifyLimit),
      // Authenticator secrets are sealed with a key kept outside the database (ADR 0041): every process needs the same.
      AUTH_FACTOR_SECRETS_KEY: randomBytes(32).toString("base64"),
      AUTH_SITE_URL: "http://127.0.0.1:3000",
    };
    // One after the other: the first start generates the instance's keys in the database, the second reads them.
    one = await startProcess(database.config.url, s3.storageUrl, sharedEnv);
    two = await startProcess(database.config.url, s3.storageUrl, sharedEnv);
    targets.push(one.url, two.url);

    const email = "ann.processes@memory-box.test";
    const signUp = await fetch(`${proxy.url}/auth/v1/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    expect(signUp.status, await signUp.clone().text()).toBe(200);
    const signIn = await fetch(`${proxy.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    expect(signIn.status, await signIn.clone().text()).toBe(200);
    token = ((await signIn.json()) as { access_token: string }).access_token;
    headers = { authorization: `Bearer ${token}` };
  }, 240_000);

  afterAll(async () => {
    await proxy?.close();
    for (const server of [one, two]) await server?.remove();
    await s3?.stop();
    await database?.drop();
  });

  const json = async <T>(response: Response, status = 200): Promise<T> => {
    expect(response.status, await response.clone().text()).toBe(status);
    return (await response.json()) as T;
  };

  it("serves through one process what was written through the other, at once: lists, searches, photos", async () => {
    // Read first through the second process, so its listing cache holds the page without the memory.
    const before = await json<MemoryPage>(await fetch(`${two.url}/api/v1/memories`, { headers }));
    const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#c86" } })
      .jpeg()
      .toBuffer();
    const upload = await fetch(`${one.url}/api/v1/photos`, {
      method: "POST",
      headers: { ...headers, "content-type": multipartContentType },
      body: new Uint8Array(multipartPayload([{ name: "file", filename: "IMG_0001.JPG", contentType: "image/jpeg", data: jpeg }])),
    });
    const photoId = (await json<{ id: string }>(upload, 201)).id;
    const created = await json<Memory>(
      await fetch(`${one.url}/api/v1/memories`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ title: "Written through the first process", tags: ["processes"], photo_ids: [photoId] }),
      }),
      201,
    );

    const after = await json<MemoryPage>(await fetch(`${two.url}/api/v1/memories`, { headers }));
    expect(after.total).toBe(before.total + 1);
    expect(after.items[0]?.id).toBe(created.id);
    const found = await json<MemoryPage>(await fetch(`${two.url}/api/v1/memories?q=first%20process`, { headers }));
    expect(found.items.map((memory) => memory.id)).toEqual([created.id]);
    const tagged = await json<MemoryPage>(await fetch(`${two.url}/api/v1/memories?tag=processes`, { headers }));
    expect(tagged.items.map((memory) => memory.id)).toEqual([created.id]);
    // The photo's bytes, from the shared store, through the other process.
    const photo = await fetch(`${two.url}${created.photos[0]!.thumbnail_url}`, { headers });
    expect(photo.status).toBe(200);
    expect(photo.headers.get("content-type")).toBe("image/webp");
  });

  it("tells a live stream on one process of a change made through the other", async () => {
    const controller = new AbortController();
    const stream = await fetch(`${two.url}/api/v1/events`, { headers, signal: controller.signal });
    expect(stream.status).toBe(200);
    let received = "";
    const reading = (async () => {
      const decoder = new TextDecoder();
      try {
        for await (const chunk of stream.body as unknown as AsyncIterable<Uint8Array>) received += decoder.decode(chunk);
      } catch {
        // Aborted at the end of the test.
      }
    })();
    // The stream is open once its first bytes (the retry hint or a heartbeat) arrived.
    while (received === "") await new Promise((resolve) => setTimeout(resolve, 20));
    const created = await json<Memory>(
      await fetch(`${one.url}/api/v1/memories`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ title: "Heard on the other process" }),
      }),
      201,
    );
    const deadline = Date.now() + 10_000;
    while (!received.includes(created.id) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await reading;
    expect(received).toContain(created.id);
  });

  it("holds a rate limit across both processes, not once per process", async () => {
    const verify = (url: string) =>
      fetch(`${url}/auth/v1/verify`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ type: "email", email: "nobody@memory-box.test", token: "000000" }),
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < verifyLimit + 2; attempt += 1)
      statuses.push((await verify(attempt % 2 ? two.url : one.url)).status);
    expect(statuses.slice(0, verifyLimit)).not.toContain(429);
    expect(statuses.slice(verifyLimit)).toEqual([429, 429]);
  });

  it("ends access through both processes when the member signs out through one", async () => {
    const email = "ben.processes@memory-box.test";
    await fetch(`${proxy.url}/auth/v1/signup`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email, password }),
    });
    const session = await json<{ access_token: string }>(
      await fetch(`${one.url}/auth/v1/token?grant_type=password`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password }),
      }),
    );
    const own = { authorization: `Bearer ${session.access_token}` };
    expect((await fetch(`${two.url}/api/v1/memories`, { headers: own })).status).toBe(200);
    expect((await fetch(`${one.url}/auth/v1/logout`, { method: "POST", headers: own })).status).toBe(204);
    for (const url of [one.url, two.url, proxy.url, proxy.url]) {
      const response = await fetch(`${url}/api/v1/memories`, { headers: own });
      expect(response.status).toBe(401);
    }
  });

  it("answers through the proxy from both processes in turn", async () => {
    const answers = await Promise.all([0, 1, 2, 3].map(() => fetch(`${proxy.url}/api/v1/memories`, { headers })));
    for (const answer of answers) expect(answer.status).toBe(200);
    const totals = await Promise.all(answers.map(async (answer) => ((await answer.json()) as MemoryPage).total));
    expect(new Set(totals).size).toBe(1);
  });
});
