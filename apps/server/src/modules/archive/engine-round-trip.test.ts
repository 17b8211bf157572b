import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import type { BoxSettings } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember, uploadPhotoAs } from "../../../test/members";
import { startTestS3Server, type TestS3Server } from "../../../test/s3-test-server";
import { runCommand } from "../../../test/run-command";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { availableEngines } from "../../../test/test-database";
import { exportCommand } from "../../cli/export.command";
import { importCommand } from "../../cli/import.command";
import { ZipReader } from "../../lib/zip-reader";
import { rotatedCameraJpeg, twoTone } from "../photos/fixtures/test-images";
import { ArchiveManifest } from "./archive-format";

// Issue #15 item 5: moving a Memory Box from SQLite and local disk to PostgreSQL and S3-compatible
// storage, and back, through its archive. What the second instance exports must be what the first
// one did: the same memories, fields and photo bytes (member ids differ between installations;
// members are the same people by e-mail).

interface Instance {
  app: TestApp;
  ann: TestMember;
  ben: TestMember;
}

async function instance(engine: "sqlite" | "postgres", s3?: TestS3Server): Promise<Instance> {
  const app = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false", ...(s3 ? { STORAGE_URL: s3.storageUrl } : {}) } });
  return {
    app,
    ann: await createMember(app, "ann@memory-box.test", "Ann"),
    ben: await createMember(app, "ben@memory-box.test", "Ben"),
  };
}

const run = runCommand;

/** An archive as two installations can agree on it: without its date, members by e-mail, in a fixed order; and its photo files. */
async function comparable(file: string) {
  const zip = await ZipReader.open(file, { maxEntries: 10_000 });
  try {
    const manifest = ArchiveManifest.parse(JSON.parse((await buffer(await zip.open("memory-box.json"))).toString()));
    const emailOf = new Map(manifest.members.map((member) => [member.id, member.email]));
    const byEmail = (id: string | null) => (id === null ? null : (emailOf.get(id) ?? "?"));
    const memories = manifest.memories
      .map((memory) => ({
        ...memory,
        user_id: byEmail(memory.user_id),
        comments: memory.comments?.map((comment) => ({ ...comment, user_id: byEmail(comment.user_id) })),
        reactions: memory.reactions?.map((reaction) => ({ ...reaction, user_id: byEmail(reaction.user_id) })),
      }))
      .sort((a, b) => a.id.localeCompare(b.id));
    const photos = new Map<string, Buffer>();
    for (const photo of memories.flatMap((memory) => memory.photos))
      photos.set(photo.file, await buffer(await zip.open(photo.file)));
    return {
      version: manifest.version,
      box: manifest.box,
      memories,
      members: manifest.members
        .map(({ email, display_name }) => ({ email, display_name }))
        .sort((a, b) => a.email.localeCompare(b.email)),
      photos,
    };
  } finally {
    zip.close();
  }
}

describe.runIf(availableEngines.includes("postgres"))("moving between engines through the archive", () => {
  let s3: TestS3Server;
  let local: Instance;
  let remote: Instance;
  let workDir: string;

  const create = async (app: TestApp, member: TestMember, payload: object): Promise<string> => {
    const response = await app.app.inject({ method: "POST", url: "/api/v1/memories", headers: member.headers, payload });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string }>().id;
  };
  const send = async (app: TestApp, member: TestMember, method: "POST" | "PUT", url: string, payload?: object) => {
    const response = await app.app.inject({ method, url, headers: member.headers, ...(payload && { payload }) });
    expect(response.statusCode).toBeLessThan(300);
  };

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-move-"));
    s3 = await startTestS3Server();
    local = await instance("sqlite");
    remote = await instance("postgres", s3);
    const photos = [
      await uploadPhotoAs(local.app, local.ann, await rotatedCameraJpeg(twoTone(300, 200))),
      await uploadPhotoAs(local.app, local.ann, await rotatedCameraJpeg(twoTone(120, 160))),
    ];
    const cafe = await create(local.app, local.ann, {
      title: "Café au bord du lac",
      content: "Ünïcödé\nand lines",
      memory_date: "2024-06-01",
      tags: ["Été", "Lake"],
      photo_ids: photos,
    });
    await send(local.app, local.ben, "POST", `/api/v1/memories/${cafe}/comments`, { body: "Ünïcödé too ☕" });
    await send(local.app, local.ann, "PUT", `/api/v1/memories/${cafe}/reactions/${encodeURIComponent("❤️")}`);
    // Its cover and a caption (version 5): the second photo leads, the first has words under it.
    await send(local.app, local.ben, "PUT", `/api/v1/memories/${cafe}/cover`, { photo_id: photos[1] });
    await send(local.app, local.ann, "PUT", `/api/v1/photos/${photos[0]}/caption`, { caption: "Ünïcödé au bord 🌊" });
    // The box's own name, cover and together-since day (version 6).
    const box = await local.app.app.inject({
      method: "PUT",
      url: "/api/v1/box",
      headers: local.ann.headers,
      payload: { name: "Ann & Ben ☕", cover_photo_id: photos[0], together_since: "2019-06-01" },
    });
    expect(box.statusCode, box.body).toBe(200);
    await create(local.app, local.ben, { title: "Ben's day", tags: [] });
    await create(local.app, local.ann, { title: "Undated", content: null, memory_date: null });
  });
  afterAll(async () => {
    await local?.app.close();
    await remote?.app.close();
    await s3?.stop();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  it("SQLite and local disk → PostgreSQL and S3 → back: each export equals the one before, photos byte for byte", async () => {
    const first = path.join(workDir, "from-sqlite.zip");
    await run(local.app, exportCommand, first);
    await run(remote.app, importCommand, "--as", "ann@memory-box.test", first);
    const second = path.join(workDir, "from-postgres.zip");
    await run(remote.app, exportCommand, second);
    const [before, after] = [await comparable(first), await comparable(second)];
    expect(after.memories).toEqual(before.memories);
    expect(after.memories.flatMap((memory) => memory.comments ?? [])).toHaveLength(1);
    expect(after.memories.flatMap((memory) => memory.reactions ?? [])).toEqual([{ emoji: "❤️", user_id: "ann@memory-box.test" }]);
    expect(after.members).toEqual(before.members);
    expect(before.version).toBe(6);
    expect(after.version).toBe(6);
    expect(after.box).toEqual(before.box);
    const boxThere = await remote.app.app.inject({ method: "GET", url: "/api/v1/box", headers: remote.ben.headers });
    expect(boxThere.json<BoxSettings>()).toMatchObject({
      name: "Ann & Ben ☕",
      cover: { id: before.memories.find((memory) => memory.title === "Café au bord du lac")!.photos[0]!.id },
      together_since: "2019-06-01",
    });
    const cafe = after.memories.find((memory) => memory.title === "Café au bord du lac")!;
    expect(cafe.cover_photo_id).toBe(cafe.photos[1]!.id);
    expect(cafe.photos.map((photo) => photo.caption)).toEqual(["Ünïcödé au bord 🌊", undefined]);
    expect(after.photos.size).toBe(2);
    for (const [file, bytes] of before.photos) expect(after.photos.get(file)?.equals(bytes)).toBe(true);

    // And back: what PostgreSQL and S3 hold now, with a memory written there, into SQLite and local disk.
    const photo = await uploadPhotoAs(remote.app, remote.ben, await rotatedCameraJpeg(twoTone(90, 60)));
    const written = await create(remote.app, remote.ben, {
      title: "Written on the new server",
      tags: ["move"],
      photo_ids: [photo],
    });
    await send(remote.app, remote.ben, "PUT", `/api/v1/memories/${written}/cover`, { photo_id: photo });
    await send(remote.app, remote.ben, "PUT", `/api/v1/photos/${photo}/caption`, { caption: "  Unpacked  " });
    // Renamed there: the name travels back, and SQLite's box, which has its own, keeps it.
    const renamed = await remote.app.app.inject({
      method: "PUT",
      url: "/api/v1/box",
      headers: remote.ann.headers,
      payload: { name: "Renamed on the new server", cover_photo_id: null, together_since: "2019-06-01" },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const third = path.join(workDir, "from-postgres-again.zip");
    await run(remote.app, exportCommand, third);
    await run(local.app, importCommand, "--as", "ann@memory-box.test", third);
    const fourth = path.join(workDir, "back-on-sqlite.zip");
    await run(local.app, exportCommand, fourth);
    const [there, back] = [await comparable(third), await comparable(fourth)];
    expect(back.memories).toEqual(there.memories);
    expect(back.memories).toHaveLength(4);
    expect(there.box).toEqual({ name: "Renamed on the new server", together_since: "2019-06-01" });
    expect(back.box).toEqual(before.box);
    expect(back.memories.find((memory) => memory.id === written)).toMatchObject({
      cover_photo_id: photo,
      photos: [{ id: photo, caption: "Unpacked" }],
    });
    for (const [file, bytes] of there.photos) expect(back.photos.get(file)?.equals(bytes)).toBe(true);
  });
});
