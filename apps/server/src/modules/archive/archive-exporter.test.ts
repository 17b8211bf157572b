import { createWriteStream } from "node:fs";
import { buffer } from "node:stream/consumers";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Memory } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createMember, type TestMember, uploadPhotoAs } from "../../../test/members";
import { startTestS3Server, type TestS3Server } from "../../../test/s3-test-server";
import { serviceRoleToken } from "../../../test/service-token";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { zipEntries } from "../../../test/zip-entries";
import { engineStorageCombinations } from "../../../test/test-matrix";
import { exportCommand } from "../../cli/export.command";
import { type DatabaseHandle, openDatabase } from "../../db/database";
import { heicGpsSample, rotatedCameraJpeg, twoTone } from "../photos/fixtures/test-images";
import sharp from "sharp";
import { createBlobStore } from "../storage";
import { ArchiveManifest } from "./archive-format";
import { ArchiveExporter } from "./archive-exporter";
import { ArchiveRepository } from "./archive.repository";
import { InvitationsRepository } from "../invitations/invitations.repository";
import { MemoriesRepository } from "../memories";

// The archive of issue #15, written by `npm run export` against a running instance's database and
// storage, and read back entry by entry as any unzip tool would.

const schemaFile = path.resolve(import.meta.dirname, "../../../../../docs/formats/memory-box-v6.schema.json");

/** Every entry of a ZIP file by name, with its bytes. */
const combinations = engineStorageCombinations("S3 (s3rver)");

describe.each(combinations)("export on %s with %s storage", (engine, storage) => {
  let testApp: TestApp;
  let s3: TestS3Server | undefined;
  let database: DatabaseHandle;
  let ann: TestMember;
  let ben: TestMember;
  let workDir: string;
  const originals = new Map<string, Buffer>();
  const memories: Memory[] = [];

  const api = (member: TestMember, method: "POST" | "PUT", url: string, payload: unknown) =>
    testApp.app.inject({ method, url, headers: member.headers, payload: payload as never });

  async function upload(member: TestMember, data: Buffer): Promise<string> {
    const id = await uploadPhotoAs(testApp, member, data);
    originals.set(id, data);
    return id;
  }

  const run = async (...args: string[]) => {
    const lines: string[] = [];
    await exportCommand.run({ args, db: database.db, out: (line) => lines.push(line), config: testApp.config });
    return lines;
  };

  beforeAll(async () => {
    s3 = storage === "S3 (s3rver)" ? await startTestS3Server() : undefined;
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false", ...(s3 ? { STORAGE_URL: s3.storageUrl } : {}) } });
    database = openDatabase(testApp.config.database);
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-export-"));
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    ben = await createMember(testApp, "ben@memory-box.test", "Ben");
    const photo = await rotatedCameraJpeg(twoTone(300, 200));
    const [first, second] = [await upload(ann, photo), await upload(ann, await rotatedCameraJpeg(twoTone(200, 300)))];
    const inputs = [
      {
        title: "Picnic <by> the lake & more",
        content: 'Sun\nand "rain"',
        memory_date: "2024-06-01",
        tags: ["Summer", "Lake"],
        photo_ids: [first, second],
      },
      { title: "Ben's first", content: null, memory_date: null, tags: [], photo_ids: [] },
      { title: "Third", tags: ["x"] },
      { title: "Fourth" },
      { title: "Fifth" },
    ];
    for (const [i, input] of inputs.entries()) {
      const response = await api(i === 1 ? ben : ann, "POST", "/api/v1/memories", input);
      expect(response.statusCode).toBe(201);
      memories.push(response.json<Memory>());
    }
    const comment = await api(ben, "POST", `/api/v1/memories/${memories[0]!.id}/comments`, { body: "Best <day>" });
    expect(comment.statusCode).toBe(201);
    const reaction = await api(
      ann,
      "PUT",
      `/api/v1/memories/${memories[0]!.id}/reactions/${encodeURIComponent("🎉")}`,
      undefined,
    );
    expect(reaction.statusCode).toBe(200);
  });
  afterAll(async () => {
    await database?.destroy();
    await testApp?.close();
    await s3?.stop();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  it("writes every memory with its fields, the originals byte for byte, and pages to browse, and no secret", async () => {
    const file = path.join(workDir, "memories.zip");
    const [summary] = await run(file);
    expect(summary).toMatch(/^Exported 5 memories, 2 photos and 0 videos \(/);
    expect(await fs.readdir(workDir)).toEqual(["memories.zip"]);

    const entries = await zipEntries(file);
    const manifest = ArchiveManifest.parse(JSON.parse(entries.get("memory-box.json")!.toString()));
    expect(manifest.members).toEqual(
      expect.arrayContaining([
        { id: ann.userId, email: "ann@memory-box.test", display_name: "Ann" },
        { id: ben.userId, email: "ben@memory-box.test", display_name: "Ben" },
      ]),
    );
    expect(manifest.memories.map((memory) => memory.id).sort()).toEqual(memories.map((memory) => memory.id).sort());
    const picnic = manifest.memories.find((memory) => memory.id === memories[0]!.id)!;
    expect(picnic).toMatchObject({
      title: "Picnic <by> the lake & more",
      content: 'Sun\nand "rain"',
      memory_date: "2024-06-01",
      tags: ["Summer", "Lake"],
      user_id: ann.userId,
      display_name: "Ann",
      created_at: memories[0]!.created_at,
      updated_at: memories[0]!.updated_at,
    });
    expect(manifest.version).toBe(2);
    expect(picnic.comments).toEqual([expect.objectContaining({ user_id: ben.userId, display_name: "Ben", body: "Best <day>" })]);
    expect(picnic.reactions).toEqual([{ emoji: "🎉", user_id: ann.userId }]);
    expect(manifest.memories.find((memory) => memory.id === memories[1]!.id)).toMatchObject({ comments: [], reactions: [] });
    expect(picnic.photos.map((photo) => photo.position)).toEqual([0, 1]);
    for (const photo of picnic.photos) {
      // The pristine original, location and camera details included: the export is the members' own.
      expect(entries.get(photo.file)?.equals(originals.get(photo.id)!)).toBe(true);
      expect(photo).toMatchObject({ content_type: "image/jpeg", bytes: originals.get(photo.id)!.length });
    }
    expect(manifest.memories.find((memory) => memory.id === memories[1]!.id)).toMatchObject({
      user_id: ben.userId,
      display_name: "Ben",
    });

    // The pages (issue #35): the years, newest first, the undated ones last; a year's memories by month.
    const index = entries.get("index.html")!.toString();
    expect(index).toContain("5 memories");
    expect([...index.matchAll(/href="(years\/[^"]+)"/g)].map((match) => match[1])).toEqual([
      "years/2024.html",
      "years/undated.html",
    ]);
    const year = entries.get("years/2024.html")!.toString();
    expect(year).toContain("<h2>June 2024</h2>");
    expect(year).toContain("Picnic &#60;by&#62; the lake &#38; more");
    expect(year).toContain(`href="../memories/${picnic.id}.html"`);
    // Its cover's small picture beside the photo, which the year's page shows.
    const thumbnail = picnic.photos[0]!.file.replace(/\.jpg$/, ".thumb.webp");
    expect(entries.has(thumbnail)).toBe(true);
    expect(year).toContain(`src="../${thumbnail}"`);
    const undated = entries.get("years/undated.html")!.toString();
    expect(undated).toContain("These memories were kept without a date");
    expect([...undated.matchAll(/<a class="title"[^>]*>([^<]+)</g)].map((match) => match[1])).toEqual([
      "Fifth",
      "Fourth",
      "Third",
      "Ben&#39;s first",
    ]);
    const page = entries.get(`memories/${picnic.id}.html`)!.toString();
    expect(page).not.toContain("<by>");
    expect(page).toContain("June 1, 2024");
    expect(page).toContain(`href="../years/2024.html"`);
    expect(page).toContain(`src="../${picnic.photos[0]!.file}"`);
    expect(entries.get(`memories/${memories[1]!.id}.html`)!.toString()).toContain("No date");
    expect(page).toContain("Best &#60;day&#62;");
    expect(page).toContain("🎉 1");

    const everything = [...entries]
      .filter(([name]) => !name.startsWith("photos/"))
      .map(([, bytes]) => bytes.toString())
      .join("\n");
    expect(everything).not.toMatch(/argon2|encrypted_password|refresh_token|access_token|secret/i);
  });

  it("reads the collection a page at a time and still writes every memory and photo once", async () => {
    const store = createBlobStore(testApp.config.storageUrl, testApp.config.dataDir);
    const file = path.join(workDir, "paged.zip");
    try {
      const exporter = new ArchiveExporter({
        archive: new ArchiveRepository(database.db, database.engine),
        memories: new MemoriesRepository(database.db, testApp.config.database.engine),
        blobStore: store,
        tempDir: path.join(workDir, "tmp"),
        pageSize: 2,
      });
      const summary = await exporter.write(createWriteStream(file));
      expect(summary).toMatchObject({ memories: 5, photos: 2 });
    } finally {
      await store.close();
    }
    const entries = await zipEntries(file);
    const manifest = ArchiveManifest.parse(JSON.parse(entries.get("memory-box.json")!.toString()));
    expect(new Set(manifest.memories.map((memory) => memory.id)).size).toBe(5);
    expect([...entries.keys()].filter((name) => name.startsWith("memories/"))).toHaveLength(5);
    // The two originals and the picnic's small picture for its year's page.
    expect([...entries.keys()].filter((name) => name.startsWith("photos/"))).toHaveLength(3);
    // Each year's page once, though its memories came over several pages of the walk.
    expect([...entries.keys()].filter((name) => name.startsWith("years/")).sort()).toEqual([
      "years/2024.html",
      "years/2024.print.html",
      "years/undated.html",
    ]);
    expect(await fs.readdir(path.join(workDir, "tmp"))).toEqual([]);
  });

  it("keeps a memory whose author's account was deleted, under 'Unknown User'", async () => {
    const carl = await createMember(testApp, "carl@memory-box.test", "Carl");
    const created = await api(carl, "POST", "/api/v1/memories", { title: "Carl's" });
    const deleted = await testApp.app.inject({
      method: "DELETE",
      url: `/auth/v1/admin/users/${carl.userId}`,
      headers: { authorization: `Bearer ${await serviceRoleToken(testApp)}` },
      payload: {},
    });
    expect(deleted.statusCode).toBe(200);

    const file = path.join(workDir, "after-delete.zip");
    await run(file);
    const manifest = ArchiveManifest.parse(JSON.parse((await zipEntries(file)).get("memory-box.json")!.toString()));
    expect(manifest.memories.find((memory) => memory.id === created.json<Memory>().id)).toMatchObject({
      user_id: null,
      display_name: "Unknown User",
    });
    expect(manifest.members.map((member) => member.email)).not.toContain("carl@memory-box.test");
  });

  it("names only the members every member sees, and the authors: no address invited but not joined, no member removed", async () => {
    const owner = await createMember(testApp, "olga@memory-box.test", "Olga");
    await database.db.updateTable("invitations").set({ role: "owner" }).where("email", "=", owner.email).execute();
    const invitations = new InvitationsRepository(database.db);
    // Invited, never came: the owners' "Invited" list only.
    await invitations.add(["dora@memory-box.test"], "test", new Date().toISOString());
    // A member removed before writing anything.
    const gus = await createMember(testApp, "gus@memory-box.test", "Gus");
    const removed = await testApp.app.inject({ method: "DELETE", url: `/api/v1/members/${gus.userId}`, headers: owner.headers });
    expect(removed.statusCode).toBe(204);

    const directory = await testApp.app.inject({ method: "GET", url: "/api/v1/members", headers: ben.headers });
    const shown = directory.json<{ members: { email: string }[] }>().members.map((member) => member.email);
    const file = path.join(workDir, "members-only.zip");
    await run(file);
    const manifest = ArchiveManifest.parse(JSON.parse((await zipEntries(file)).get("memory-box.json")!.toString()));
    const named = manifest.members.map((member) => member.email);
    expect(named.sort()).toEqual([...shown].sort());
    for (const hidden of ["dora@memory-box.test", "gus@memory-box.test"]) {
      expect(named).not.toContain(hidden);
    }
  });

  it("leaves no file that looks whole when a photo's bytes are missing, and says which", async () => {
    const store = createBlobStore(testApp.config.storageUrl, testApp.config.dataDir);
    const [row] = await database.db.selectFrom("photos").select("object_key").where("memory_id", "is not", null).execute();
    const original = await buffer((await store.get(`memory-photos/${row!.object_key}`)).body);
    await store.delete(`memory-photos/${row!.object_key}`);
    const file = path.join(workDir, "broken.zip");
    try {
      await expect(run(file)).rejects.toThrow(/object/i);
      await expect(fs.access(file)).rejects.toThrow();
      await expect(fs.access(`${file}.partial`)).rejects.toThrow();
    } finally {
      await store.put(`memory-photos/${row!.object_key}`, original);
      await store.close();
    }
  });

  it("shows a HEIC photo on the pages through its JPEG copy beside the original, and the original when the copy is lost", async () => {
    const heic = heicGpsSample();
    const id = await upload(ann, heic);
    const created = await api(ann, "POST", "/api/v1/memories", {
      title: "From the phone",
      memory_date: "2023-05-04",
      photo_ids: [id],
    });
    expect(created.statusCode).toBe(201);
    const memoryId = created.json<Memory>().id;

    const file = path.join(workDir, "heic.zip");
    await run(file);
    const entries = await zipEntries(file);
    const original = `photos/${memoryId}/${id}.heic`;
    const view = `photos/${memoryId}/${id}.view.jpg`;
    expect(entries.get(original)?.equals(heic)).toBe(true);
    expect((await sharp(entries.get(view)).metadata()).format).toBe("jpeg");
    const page = entries.get(`memories/${memoryId}.html`)!.toString();
    expect(page).toContain(`<a href="../${original}"><img src="../${view}"`);

    // A copy lost from storage is left out; the page offers the original, and the export holds.
    const store = createBlobStore(testApp.config.storageUrl, testApp.config.dataDir);
    const { display_key } = await database.db
      .selectFrom("photos")
      .select("display_key")
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    const copy = await buffer((await store.get(`memory-photos/${display_key}`)).body);
    await store.delete(`memory-photos/${display_key}`);
    try {
      const without = path.join(workDir, "heic-without-copy.zip");
      await run(without);
      const rest = await zipEntries(without);
      expect(rest.has(view)).toBe(false);
      expect(rest.get(`memories/${memoryId}.html`)!.toString()).toContain(`<a href="../${original}"><img src="../${original}"`);
    } finally {
      await store.put(`memory-photos/${display_key}`, copy);
      await store.close();
    }
  });
});

describe("the archive format", () => {
  it("is described for other programs by the JSON Schema in docs/formats, kept equal to the code's", async () => {
    const documented: unknown = JSON.parse(await fs.readFile(schemaFile, "utf8"));
    expect(documented).toEqual(z.toJSONSchema(ArchiveManifest));
  });

  it("needs the reader to know the format and version", () => {
    expect(
      ArchiveManifest.safeParse({ format: "memory-box", version: 7, exported_at: "", members: [], memories: [] }).success,
    ).toBe(false);
  });
});
