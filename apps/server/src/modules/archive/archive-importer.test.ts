import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import type { CommentList, Memory, MemoryPage } from "@memory-box/contract";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesUnder } from "../../../test/files-under";
import { writeZip } from "../../../test/dayone-export";
import { createMember, type TestMember, uploadPhotoAs } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { runCommand } from "../../../test/run-command";
import { testEngines } from "../../../test/test-database";
import { exportCommand } from "../../cli/export.command";
import { importCommand } from "../../cli/import.command";
import { type DatabaseHandle, openDatabase } from "../../db/database";
import { ZipReader } from "../../lib/zip-reader";
import { rotatedCameraJpeg, twoTone } from "../photos/fixtures/test-images";
import { ArchiveManifest } from "./archive-format";

// Issue #15 item 2: an archive written by `export` on one instance, brought into another by
// `import`; and archives that must be refused, leaving the instance exactly as it was.

/** Every entry of a ZIP by name. */
async function entriesOf(file: string): Promise<Map<string, Buffer>> {
  const zip = await ZipReader.open(file, { maxEntries: 10_000 });
  try {
    const entries = new Map<string, Buffer>();
    for (const { name } of zip.entries()) entries.set(name, await buffer(await zip.open(name)));
    return entries;
  } finally {
    zip.close();
  }
}

describe.each(testEngines())("import on %s", (engine) => {
  let source: TestApp;
  let target: TestApp;
  let targetDb: DatabaseHandle;
  let ann: TestMember;
  let annThere: TestMember;
  let workDir: string;
  let archive: string;
  const originals = new Map<string, Buffer>();
  const written: Memory[] = [];

  async function upload(app: TestApp, member: TestMember, data: Buffer): Promise<string> {
    const id = await uploadPhotoAs(app, member, data);
    originals.set(id, data);
    return id;
  }

  const cli = runCommand;

  /** What a member of the target sees: every memory, newest first. */
  async function targetMemories(): Promise<Memory[]> {
    const response = await target.app.inject({ method: "GET", url: "/api/v1/memories?limit=100", headers: annThere.headers });
    expect(response.statusCode).toBe(200);
    return response.json<MemoryPage>().items;
  }

  /** Everything that says what the target holds: its rows and its stored files. */
  async function targetState() {
    const count = async (table: "memories" | "photos" | "memory_tags" | "comments" | "reactions") =>
      Number(
        (
          await targetDb.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      memories: await count("memories"),
      photos: await count("photos"),
      tags: await count("memory_tags"),
      comments: await count("comments"),
      reactions: await count("reactions"),
      files: await filesUnder(path.join(target.config.dataDir, "storage")),
    };
  }

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-import-"));
    source = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(source, "ann@memory-box.test", "Ann");
    const ben = await createMember(source, "ben@memory-box.test", "Ben");
    const photos = [
      await upload(source, ann, await rotatedCameraJpeg(twoTone(300, 200))),
      await upload(source, ann, await rotatedCameraJpeg(twoTone(200, 300))),
    ];
    const inputs = [
      {
        title: "Picnic by the lake",
        content: "Sun\nand rain",
        memory_date: "2024-06-01",
        tags: ["Summer", "Lake"],
        photo_ids: photos,
      },
      { title: "Ben's first", content: null, memory_date: null, tags: [], photo_ids: [] },
      { title: "Third", tags: ["x"] },
    ];
    for (const [i, input] of inputs.entries()) {
      const response = await source.app.inject({
        method: "POST",
        url: "/api/v1/memories",
        headers: (i === 1 ? ben : ann).headers,
        payload: input,
      });
      expect(response.statusCode).toBe(201);
      written.push(response.json<Memory>());
    }
    // The picnic's comments and reactions, by Ann and by Ben (who is no member of the target).
    const picnicUrl = `/api/v1/memories/${written[0]!.id}`;
    for (const [member, body] of [
      [ann, "What a day"],
      [ben, "  Next year again  "],
    ] as const) {
      const comment = await source.app.inject({
        method: "POST",
        url: `${picnicUrl}/comments`,
        headers: member.headers,
        payload: { body },
      });
      expect(comment.statusCode).toBe(201);
    }
    for (const [member, emoji] of [
      [ann, "❤️"],
      [ben, "❤️"],
      [ann, "🎉"],
    ] as const) {
      const reaction = await source.app.inject({
        method: "PUT",
        url: `${picnicUrl}/reactions/${encodeURIComponent(emoji)}`,
        headers: member.headers,
      });
      expect(reaction.statusCode).toBe(200);
    }
    archive = path.join(workDir, "memories.zip");
    await cli(source, exportCommand, archive);

    // Another instance, where only Ann is a member.
    target = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    targetDb = openDatabase(target.config.database);
    annThere = await createMember(target, "ann@memory-box.test", "Ann");
  });
  afterAll(async () => {
    await targetDb?.destroy();
    await target?.close();
    await source?.close();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  it("brings every memory in with its id, dates, author by e-mail and photos, renditions made again; the same archive twice changes nothing", async () => {
    const summary = (await cli(target, importCommand, "--as", "ann@memory-box.test", archive)).at(-1);
    expect(summary).toMatch(/^Imported 3 memories, 2 photos and 0 videos in [\d.]+ s as ann@memory-box.test\.$/);

    const imported = await targetMemories();
    expect(imported.map((memory) => memory.id).sort()).toEqual(written.map((memory) => memory.id).sort());
    const picnic = imported.find((memory) => memory.id === written[0]!.id)!;
    expect(picnic).toMatchObject({
      title: "Picnic by the lake",
      content: "Sun\nand rain",
      memory_date: "2024-06-01",
      tags: ["Summer", "Lake"],
      user_id: annThere.userId,
      profiles: { display_name: "Ann" },
      created_at: written[0]!.created_at,
      updated_at: written[0]!.updated_at,
    });
    expect(picnic.photos.map((photo) => [photo.id, photo.width, photo.height])).toEqual(
      written[0]!.photos.map((photo) => [photo.id, photo.width, photo.height]),
    );
    for (const photo of picnic.photos) {
      const thumbnail = await target.app.inject({ method: "GET", url: photo.thumbnail_url, headers: annThere.headers });
      expect(thumbnail.statusCode).toBe(200);
      expect(thumbnail.headers["content-type"]).toBe("image/webp");
    }
    // The comments come along, oldest first: Ann's is hers here; Ben's stays, with no name.
    // Reactions are their members' own: Ann's two come along, Ben's goes without him.
    const comments = await target.app.inject({
      method: "GET",
      url: `/api/v1/memories/${picnic.id}/comments`,
      headers: annThere.headers,
    });
    expect(comments.json<CommentList>().comments.map((comment) => [comment.body, comment.user_id, comment.author])).toEqual([
      ["What a day", annThere.userId, { display_name: "Ann" }],
      ["Next year again", null, null],
    ]);
    expect(picnic.comment_count).toBe(2);
    expect(picnic.reactions).toEqual([
      { emoji: "❤️", count: 1 },
      { emoji: "🎉", count: 1 },
    ]);

    // Ben is no member here: his memory stays, by "Unknown User".
    expect(imported.find((memory) => memory.id === written[1]!.id)).toMatchObject({ user_id: null, profiles: null });
    const search = await target.app.inject({ method: "GET", url: "/api/v1/memories?q=lake", headers: annThere.headers });
    expect(search.json<MemoryPage>().items.map((memory) => memory.id)).toEqual([picnic.id]);
    // Any word an imported memory brought finds it, with its count (on PostgreSQL, from the
    // dictionary of words the import's rows filled, ADR 0081).
    for (const [q, id] of [
      ["rain", picnic.id],
      ["BEN'S", written[1]!.id],
      ["third", written[2]!.id],
    ] as const) {
      const found = await target.app.inject({
        method: "GET",
        url: `/api/v1/memories?q=${encodeURIComponent(q)}`,
        headers: annThere.headers,
      });
      const page = found.json<MemoryPage>();
      expect([page.items.map((memory) => memory.id), page.matched], q).toEqual([[id], 1]);
    }

    // Exported again, the originals are byte for byte those uploaded on the first instance.
    const again = path.join(workDir, "again.zip");
    await cli(target, exportCommand, again);
    const entries = await entriesOf(again);
    const manifest = ArchiveManifest.parse(JSON.parse(entries.get("memory-box.json")!.toString()));
    for (const photo of manifest.memories.flatMap((memory) => memory.photos)) {
      expect(entries.get(photo.file)?.equals(originals.get(photo.id)!)).toBe(true);
    }

    const before = await targetState();
    const second = (await cli(target, importCommand, "--as", "ann@memory-box.test", archive)).at(-1);
    expect(second).toMatch(
      /^Imported 0 memories, 0 photos and 0 videos .*; 3 memories were already here and were left as they are\.$/,
    );
    expect(await targetState()).toEqual(before);
  });

  it("reads a manifest of tens of megabytes a little at a time, the server free to answer meanwhile", async () => {
    // The archive's own manifest with a list of six million numbers in it, as a hostile file pads
    // one: parsed whole at once, it held the event loop for the better part of a second.
    const entries = await entriesOf(archive);
    const manifest = entries.get("memory-box.json")!.toString();
    entries.set("memory-box.json", Buffer.from(`${manifest.slice(0, -1)},"padding":[${"0,".repeat(6_000_000)}0]}`));
    const padded = path.join(workDir, "padded.zip");
    await writeZip(padded, [...entries]);
    const stalls = monitorEventLoopDelay({ resolution: 5 });
    stalls.enable();
    const lines = await cli(target, importCommand, "--as", "ann@memory-box.test", padded);
    stalls.disable();
    expect(lines.at(-1)).toMatch(/^Imported \d+ memories/);
    // The longest the server could not answer, in milliseconds: a turn is a few hundred kilobytes
    // (tens of milliseconds on a quiet machine); parsed whole, this file held it for seconds.
    expect(stalls.max / 1e6).toBeLessThan(1000);
  });

  describe("refuses, and leaves the instance exactly as it was,", () => {
    async function refused(file: string, ...flags: string[]): Promise<string> {
      const before = await targetState();
      const error = await cli(target, importCommand, "--as", "ann@memory-box.test", ...flags, file).then(
        () => undefined,
        (failure: unknown) => failure as Error,
      );
      expect(error).toBeInstanceOf(Error);
      expect(error!.message).toMatch(/^Nothing was imported\. /);
      expect(await targetState()).toEqual(before);
      return error!.message;
    }

    let alteredCount = 0;
    /** The archive with new ids (so nothing of it is already here and every check runs), changed by `change`. */
    async function altered(
      name: string,
      change: (manifest: ArchiveManifest, entries: Map<string, Buffer>) => void,
    ): Promise<string> {
      alteredCount += 1;
      // Every id's first group becomes this archive's number: never one the target already holds
      // (keeping part of the old group kept it unchanged whenever that part was the number).
      const renewed = (text: string) =>
        text.replaceAll(/[0-9a-f]{8}-[0-9a-f]{4}-4/g, (id) => `${alteredCount.toString(16).padStart(8, "0")}${id.slice(8)}`);
      const entries = new Map([...(await entriesOf(archive))].map(([entry, bytes]) => [renewed(entry), bytes]));
      const manifest = ArchiveManifest.parse(JSON.parse(renewed(entries.get("memory-box.json")!.toString())));
      change(manifest, entries);
      entries.set("memory-box.json", Buffer.from(JSON.stringify(manifest)));
      const file = path.join(workDir, name);
      await writeZip(file, [...entries]);
      return file;
    }

    /** The first photo of the archive, and the memory it belongs to. */
    const firstPhoto = (manifest: ArchiveManifest) => manifest.memories.flatMap((memory) => memory.photos)[0]!;

    it("a file that is not there, or a folder, named as such (not as a damaged ZIP)", async () => {
      const missing = path.join(workDir, "missing.zip");
      expect(await refused(missing)).toBe(`Nothing was imported. There is no file at ${missing}.`);
      expect(await refused(workDir)).toBe(`Nothing was imported. ${workDir} is a folder, not a ZIP file.`);
    });

    it("a file that is not a ZIP, or a truncated one", async () => {
      const text = path.join(workDir, "notes.zip");
      await fs.writeFile(text, "just some notes");
      expect(await refused(text)).toMatch(/cannot be read safely: it is not a ZIP file, or it is incomplete/);
      const whole = await fs.readFile(archive);
      const truncated = path.join(workDir, "truncated.zip");
      await fs.writeFile(truncated, whole.subarray(0, Math.floor(whole.length * 0.6)));
      expect(await refused(truncated)).toMatch(/cannot be read safely/);
    });

    it("a foreign ZIP, and an archive of a newer format version", async () => {
      const foreign = path.join(workDir, "foreign.zip");
      await writeZip(foreign, [["readme.txt", "hello"]]);
      expect(await refused(foreign)).toMatch(/not a Memory Box archive: it has no memory-box.json/);
      const newer = path.join(workDir, "newer.zip");
      await writeZip(newer, [["memory-box.json", JSON.stringify({ format: "memory-box", version: 7, memories: [] })]]);
      expect(await refused(newer)).toMatch(/version 7 of the format; this Memory Box reads versions 1 to 6/);
    });

    it("a manifest built to exhaust the server: a value of megabytes, or nesting hundreds deep", async () => {
      const long = path.join(workDir, "long-value.zip");
      const title = "a".repeat(2 * 1024 * 1024);
      await writeZip(long, [
        ["memory-box.json", `{"format":"memory-box","version":2,"members":[],"memories":[{"title":"${title}"}]}`],
      ]);
      expect(await refused(long)).toMatch(/memory-box\.json holds a value longer than 1,048,576 characters/);
      const deep = path.join(workDir, "deep.zip");
      await writeZip(deep, [
        ["memory-box.json", `{"format":"memory-box","version":2,"members":[],"memories":${"[".repeat(500)}${"]".repeat(500)}}`],
      ]);
      expect(await refused(deep)).toMatch(/memory-box\.json is nested more than 32 levels deep/);
      const cut = path.join(workDir, "cut.zip");
      await writeZip(cut, [["memory-box.json", `{"format":"memory-box","version":2,"members":[],"memories":[`]]);
      expect(await refused(cut)).toMatch(/memory-box\.json is not valid JSON/);
    });

    it("an entry that climbs out of the archive (path traversal)", async () => {
      const file = await altered("traversal.zip", (_manifest, entries) => entries.set("../../outside.txt", Buffer.from("x")));
      expect(await refused(file)).toMatch(/invalid relative path: \.\.\/\.\.\/outside\.txt/);
      await expect(fs.access(path.join(target.config.dataDir, "..", "outside.txt"))).rejects.toThrow();
    });

    it("a JSON that lies about a photo's size, and a photo missing from the archive", async () => {
      const lying = await altered("lying.zip", (manifest) => {
        firstPhoto(manifest).bytes += 1;
      });
      expect(await refused(lying)).toMatch(/description says \d+: the archive is damaged or was altered/);
      const missing = await altered("missing.zip", (manifest, entries) => {
        entries.delete(firstPhoto(manifest).file);
      });
      expect(await refused(missing)).toMatch(/is missing from the archive: photos\//);
    });

    it("a file that is not an image under a photo's name, after storing the photos before it (which are removed again)", async () => {
      const file = await altered("fake-photo.zip", (manifest, entries) => {
        const photos = manifest.memories.flatMap((memory) => memory.photos);
        const last = photos.at(-1)!;
        const fake = Buffer.from("%PDF-1.7 not a photo at all".padEnd(last.bytes, " "));
        entries.set(last.file, fake);
      });
      expect(await refused(file)).toMatch(/A photo of The memory "Picnic by the lake" .* cannot be imported: /);
    });

    it("a zip bomb whose directory understates an entry's size", async () => {
      const file = await altered("bomb.zip", (_manifest, entries) => entries.set("padding.bin", Buffer.alloc(4_000_000)));
      // The central directory says padding.bin is 1,000 bytes; inflating it gives 4 MB.
      const zip = await fs.readFile(file);
      const name = Buffer.from("padding.bin");
      const directory = zip.lastIndexOf(Buffer.concat([Buffer.from([0x50, 0x4b, 0x01, 0x02])]), zip.lastIndexOf(name));
      zip.writeUInt32LE(1_000, directory + 24);
      await fs.writeFile(file, zip);
      const bomb = await ZipReader.open(file, { maxEntries: 100 });
      await expect(buffer(await bomb.open("padding.bin"))).rejects.toThrow(/too many bytes|size/i);
      bomb.close();
      // The import never reads it; the same lie on a photo is caught by the size check.
      expect(await refused(await altered("bomb-photo.zip", (manifest) => (firstPhoto(manifest).bytes = 10)))).toMatch(
        /description says 10/,
      );
    });

    it("a damaged photo whose bytes no longer match their checksum", async () => {
      let photoFile = "";
      const file = await altered("damaged.zip", (manifest) => (photoFile = firstPhoto(manifest).file));
      const zip = await fs.readFile(file);
      // Photos are stored uncompressed: flip a byte in the middle of the first one, found after its
      // name in its local header (the deflated pages before it may hold the same three bytes).
      const photoAt = zip.indexOf(Buffer.from([0xff, 0xd8, 0xff]), zip.indexOf(Buffer.from(photoFile)));
      zip[photoAt + 500]! ^= 0xff;
      await fs.writeFile(file, zip);
      expect(await refused(file)).toMatch(/is damaged \(its checksum does not match\)/);
    });

    it("except a date of any year the archive holds, kept as it was: members type years 1000 to next year, an older archive may hold others", async () => {
      const file = await altered("any-year.zip", (manifest) => {
        manifest.memories[0]!.memory_date = "2999-06-01";
        manifest.memories[1]!.memory_date = "0050-01-02";
      });
      await cli(target, importCommand, "--as", "ann@memory-box.test", file);
      const dates = new Map((await targetMemories()).map((memory) => [memory.id, memory.memory_date]));
      const manifest = ArchiveManifest.parse(JSON.parse((await entriesOf(file)).get("memory-box.json")!.toString()));
      expect(dates.get(manifest.memories[0]!.id)).toBe("2999-06-01");
      expect(dates.get(manifest.memories[1]!.id)).toBe("0050-01-02");
    });

    it("a memory that breaks this instance's rules, naming it and the rule", async () => {
      const file = await altered("rules.zip", (manifest) => {
        manifest.memories[0]!.tags = Array.from({ length: 31 }, (_, i) => `tag${i}`);
      });
      expect(await refused(file)).toMatch(
        /^Nothing was imported\. The memory ".*" \(.*\) cannot be kept here: its tags at most 30 tags\.$/,
      );
    });
  });
});
