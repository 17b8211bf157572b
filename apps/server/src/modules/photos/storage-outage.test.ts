import net from "node:net";
import type { HealthResponse } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { multipartContentType, multipartPayload } from "../../../test/multipart";
import { startTestS3Server, type TestS3Server } from "../../../test/s3-test-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { openDatabase } from "../../db/database";
import { rotatedCameraJpeg, twoTone } from "./fixtures/test-images";

// Issue #37, faults that heal: the S3 store out of reach. An upload answers 503 with Retry-After
// and leaves nothing; health says storage is down; once the store is back, uploads work again
// without a restart.

/** A TCP proxy in front of the store that can be taken down (every connection cut or refused) and up. */
async function switchableProxy(target: URL) {
  const sockets = new Set<net.Socket>();
  let down = false;
  const server = net.createServer((client) => {
    if (down) return client.destroy();
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    takeDown() {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    bringUp() {
      down = false;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(testEngines())("the photo store out of reach, on %s", (engine) => {
  let s3: TestS3Server;
  let proxy: Awaited<ReturnType<typeof switchableProxy>>;
  let testApp: TestApp;
  let ann: TestMember;
  let photo: Buffer;

  const upload = () =>
    testApp.app.inject({
      method: "POST",
      url: "/api/v1/photos",
      headers: { ...ann.headers, "content-type": multipartContentType },
      payload: multipartPayload([{ name: "file", filename: "IMG_0001.JPG", contentType: "image/jpeg", data: photo }]),
    });
  const uploadsKept = async () => {
    const database = openDatabase(testApp.config.database);
    try {
      return (await database.db.selectFrom("photos").select("id").execute()).length;
    } finally {
      await database.destroy();
    }
  };

  beforeAll(async () => {
    s3 = await startTestS3Server();
    proxy = await switchableProxy(new URL(s3.connection.endpoint!));
    const storageUrl = s3.storageUrl.replace(
      encodeURIComponent(s3.connection.endpoint!),
      encodeURIComponent(`http://127.0.0.1:${proxy.port}`),
    );
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false", STORAGE_URL: storageUrl } });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    photo = await rotatedCameraJpeg(twoTone(320, 240));
  });
  afterAll(async () => {
    await testApp?.close();
    await proxy?.close();
    await s3?.stop();
  });

  it("answers an upload 503 with Retry-After and keeps nothing, says so in health, and heals without a restart", async () => {
    expect((await upload()).statusCode).toBe(201);
    const before = await uploadsKept();

    proxy.takeDown();
    const refused = await upload();
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: "service_unavailable" });
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(await uploadsKept()).toBe(before);
    const health = await testApp.app.inject({ method: "GET", url: "/api/health" });
    expect(health.statusCode).toBe(503);
    expect(health.json<HealthResponse>()).toMatchObject({ status: "degraded", database: "ok", storage: "error" });

    proxy.bringUp();
    expect((await upload()).statusCode).toBe(201);
    expect(await uploadsKept()).toBe(before + 1);
    expect((await testApp.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
  });
});
