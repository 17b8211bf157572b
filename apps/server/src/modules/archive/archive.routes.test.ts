import { randomBytes } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs/promises";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { ExportLink } from "@memory-box/contract";
import yauzl from "yauzl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { photoRow } from "../../../test/photo-rows";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { TestClock } from "../../../test/auth-fixtures";
import { zipEntries } from "../../../test/zip-entries";
import { openDatabase } from "../../db/database";
import { photoBucket } from "../photos";
import { createBlobStore } from "../storage";
import { ArchiveManifest } from "./archive-format";

// "Download everything": a member asks for a one-minute link, and the browser downloads the
// archive from it. Every way to the download without a live member session is refused.

/**
 * A download read slowly, as over a slow network: the server's writes wait in its socket while
 * the exporter goes on reading photos.
 */
async function slowDownload(url: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(url, resolve).on("error", reject));
  const chunks: Buffer[] = [];
  response.on("data", (chunk: Buffer) => {
    chunks.push(chunk);
    response.pause();
    setTimeout(() => response.resume(), 1);
  });
  await once(response, "end");
  return { status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) };
}

describe("downloading the archive", () => {
  let testApp: TestApp;
  let ann: TestMember;
  const clock = new TestClock();

  beforeAll(async () => {
    testApp = await createTestApp("sqlite", { env: { AUTH_RATE_LIMITS: "false" }, now: clock.now });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    const created = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title: "Lake day" },
    });
    expect(created.statusCode).toBe(201);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const askForLink = async (member: TestMember) => {
    const response = await testApp.app.inject({ method: "POST", url: "/api/v1/account/export", headers: member.headers });
    expect(response.statusCode).toBe(200);
    return response.json<ExportLink>();
  };

  it("gives a member a one-minute link that downloads the whole archive as a ZIP", async () => {
    const link = await askForLink(ann);
    expect(link.url).toMatch(/^\/api\/v1\/account\/export\?ticket=/);
    expect(link.expires_at - Math.floor(clock.now().getTime() / 1000)).toBe(60);

    const download = await testApp.app.inject({ method: "GET", url: link.url });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("application/zip");
    expect(download.headers["content-disposition"]).toMatch(/^attachment; filename="memory-box-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(download.headers["cache-control"]).toBe("no-store");

    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-download-")), "archive.zip");
    await fs.writeFile(file, download.rawPayload);
    const names = await new Promise<string[]>((resolve, reject) =>
      yauzl.open(file, (error, zip) => {
        if (error) return reject(error);
        const found: string[] = [];
        zip.on("entry", (entry: yauzl.Entry) => found.push(entry.fileName));
        zip.on("end", () => resolve(found));
      }),
    );
    expect(names).toEqual(expect.arrayContaining(["memory-box.json", "index.html"]));
  });

  it("downloads over a real connection with the photos byte for byte, however many reads each takes", async () => {
    // Photos of several 1 MiB reads each: the download reuses its read buffers once the
    // connection has sent their bytes, and a buffer reused too early would show as changed bytes.
    // The export copies originals as they are stored, so they are written to storage as an upload
    // leaves them, without making and processing images that large.
    const photos = [0, 1, 2].map(() => randomBytes(2 * 1024 * 1024 + 64 * 1024));
    const blobStore = createBlobStore(testApp.config.storageUrl, testApp.config.dataDir);
    const database = openDatabase(testApp.config.database);
    const ids: string[] = [];
    try {
      for (const [index, photo] of photos.entries()) {
        const row = photoRow(`${ann.userId}/big-${index}`, { owner_id: ann.userId, bytes: photo.length });
        await blobStore.put(`${photoBucket}/${row.object_key}`, photo, { contentType: row.content_type });
        await database.db.insertInto("photos").values(row).execute();
        ids.push(row.id);
      }
    } finally {
      await database.destroy();
    }
    const created = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title: "Big photos", photo_ids: ids },
    });
    expect(created.statusCode).toBe(201);

    const address = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    const response = await slowDownload(`${address}${(await askForLink(ann)).url}`);
    expect(response.status).toBe(200);
    // The response is written by the exporter itself: the headers every answer carries are there too.
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(response.headers["content-security-policy"]).toBeTruthy();
    const entries = await zipEntries(response.body);
    const manifest = ArchiveManifest.parse(JSON.parse(entries.get("memory-box.json")!.toString()));
    const memory = manifest.memories.find((candidate) => candidate.title === "Big photos")!;
    expect(memory.photos.map((photo) => photo.id)).toEqual(ids);
    for (const [index, photo] of memory.photos.entries()) expect(entries.get(photo.file)?.equals(photos[index]!)).toBe(true);
  });

  it("refuses a download without a ticket, with a forged, expired or photo ticket, and after sign-out", async () => {
    expect((await testApp.app.inject({ method: "GET", url: "/api/v1/account/export" })).statusCode).toBe(401);
    expect((await testApp.app.inject({ method: "POST", url: "/api/v1/account/export" })).statusCode).toBe(401);

    const link = await askForLink(ann);
    const ticket = new URL(link.url, "http://x").searchParams.get("ticket")!;
    const [session, expires] = ticket.split(".");
    const forged = `${session}.${Number(expires) + 3600}.${ticket.split(".")[2]}`;
    expect((await testApp.app.inject({ method: "GET", url: `/api/v1/account/export?ticket=${forged}` })).statusCode).toBe(401);

    // A photo access cookie's value is the same shape, signed for another purpose: it opens no download.
    const photoCookie = await testApp.app.inject({ method: "POST", url: "/api/v1/photo-access", headers: ann.headers });
    const cookieValue = /memory-box-photos=([^;]+)/.exec(String(photoCookie.headers["set-cookie"]))?.[1];
    expect(cookieValue).toBeTruthy();
    expect((await testApp.app.inject({ method: "GET", url: `/api/v1/account/export?ticket=${cookieValue}` })).statusCode).toBe(
      401,
    );

    clock.advance(61);
    expect((await testApp.app.inject({ method: "GET", url: link.url })).statusCode).toBe(401);

    const fresh = await askForLink(ann);
    await testApp.app.inject({ method: "POST", url: "/auth/v1/logout", headers: ann.headers });
    const afterSignOut = await testApp.app.inject({ method: "GET", url: fresh.url });
    expect(afterSignOut.statusCode).toBe(401);
    expect(afterSignOut.json()).toMatchObject({ code: "session_not_found" });
  });
});
