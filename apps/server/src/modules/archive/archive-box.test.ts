import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { BoxSettings, ImportResult, Memory, MemoryPage } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeZip } from "../../../test/dayone-export";
import { openStream } from "../../../test/event-stream";
import { createMember, type TestMember, uploadPhotoAs } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { runCommand } from "../../../test/run-command";
import { testEngines } from "../../../test/test-database";
import { zipEntries } from "../../../test/zip-entries";
import { exportCommand } from "../../cli/export.command";
import { importCommand } from "../../cli/import.command";
import { openDatabase } from "../../db/database";
import { rotatedCameraJpeg, twoTone } from "../photos/fixtures/test-images";
import { type ArchiveBox, ArchiveManifest } from "./archive-format";

// Issue #34 "Their box" (ADR 0065, 0082): the box's own name, cover and together-since day travel
// in the archive (version 6), so a couple moving to another machine keeps them; an import sets them
// only where the box has none, with the box's own rules, all of it or nothing.

const unknownId = "6f1b2c3d-0000-4000-8000-000000000000";

/** "YYYY-MM-DD", `days` from today (UTC). */
function dayFromToday(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

describe.each(testEngines())("the box's own settings in the archive on %s", (engine) => {
  let from: TestApp;
  let ann: TestMember;
  let workDir: string;
  let memory: Memory;
  let withoutBox: string;
  let withBox: string;
  const apps: TestApp[] = [];

  const cli = runCommand;
  const boxOf = async (app: TestApp, member: TestMember) => {
    const response = await app.app.inject({ method: "GET", url: "/api/v1/box", headers: member.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<BoxSettings>();
  };
  const setBox = async (app: TestApp, member: TestMember, payload: object) => {
    const response = await app.app.inject({ method: "PUT", url: "/api/v1/box", headers: member.headers, payload });
    expect(response.statusCode, response.body).toBe(200);
  };
  const memoryIds = async (app: TestApp, member: TestMember) =>
    (await app.app.inject({ method: "GET", url: "/api/v1/memories?limit=100", headers: member.headers }))
      .json<MemoryPage>()
      .items.map((item) => item.id);
  const boxRows = async (app: TestApp) => {
    const database = openDatabase(app.config.database);
    try {
      return await database.db.selectFrom("box_settings").selectAll().execute();
    } finally {
      await database.destroy();
    }
  };
  /** A new, empty instance, its first member its owner. */
  const instance = async (): Promise<{ app: TestApp; owner: TestMember }> => {
    const app = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    apps.push(app);
    return { app, owner: await createMember(app, "ann@memory-box.test", "Ann") };
  };

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-archive-box-"));
    from = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    apps.push(from);
    ann = await createMember(from, "ann@memory-box.test", "Ann");
    const photos = [
      await uploadPhotoAs(from, ann, await rotatedCameraJpeg(twoTone(300, 200))),
      await uploadPhotoAs(from, ann, await rotatedCameraJpeg(twoTone(200, 300))),
    ];
    const created = await from.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title: "The lake", photo_ids: photos },
    });
    expect(created.statusCode, created.body).toBe(201);
    memory = created.json<Memory>();
    // A cover: version 5 without the box's settings.
    const cover = await from.app.inject({
      method: "PUT",
      url: `/api/v1/memories/${memory.id}/cover`,
      headers: ann.headers,
      payload: { photo_id: photos[1] },
    });
    expect(cover.statusCode, cover.body).toBe(200);
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await fs.rm(workDir, { recursive: true, force: true });
  });

  it("writes version 5 while the box has nothing set, version 6 with its name, cover and day, its name heading the index", async () => {
    withoutBox = path.join(workDir, "without-box.zip");
    await cli(from, exportCommand, withoutBox);
    const before = await zipEntries(withoutBox);
    const five = ArchiveManifest.parse(JSON.parse(before.get("memory-box.json")!.toString()));
    expect(five.version).toBe(5);
    expect(five).not.toHaveProperty("box");

    // A row with nothing set is no settings either.
    await setBox(from, ann, { name: "  ", cover_photo_id: null, together_since: null });
    await cli(from, exportCommand, withoutBox);
    expect(JSON.parse((await zipEntries(withoutBox)).get("memory-box.json")!.toString())).toMatchObject({ version: 5 });
    expect(JSON.parse((await zipEntries(withoutBox)).get("memory-box.json")!.toString())).not.toHaveProperty("box");

    await setBox(from, ann, { name: "Ann & Ben", cover_photo_id: memory.photos[0]!.id, together_since: "2019-06-01" });
    withBox = path.join(workDir, "with-box.zip");
    await cli(from, exportCommand, withBox);
    const entries = await zipEntries(withBox);
    const six = ArchiveManifest.parse(JSON.parse(entries.get("memory-box.json")!.toString()));
    expect(six.version).toBe(6);
    expect(six.box).toEqual({ name: "Ann & Ben", cover_photo_id: memory.photos[0]!.id, together_since: "2019-06-01" });
    expect(entries.get("index.html")!.toString()).toContain("<h1>Ann &#38; Ben</h1>");
    expect(entries.get("index.html")!.toString()).toContain("<title>Ann &#38; Ben</title>");
  });

  it("brings them into a box with nothing set, through the API, and tells its open screens", async () => {
    const { app, owner } = await instance();
    // Saved once with nothing set: a row, and still no settings.
    await setBox(app, owner, { name: null, cover_photo_id: null, together_since: null });
    const stream = await openStream(await app.app.listen({ port: 0, host: "127.0.0.1" }), owner);
    const response = await app.app.inject({
      method: "POST",
      url: "/api/v1/account/import?from=memory-box",
      headers: { ...owner.headers, "content-type": "application/zip" },
      payload: await fs.readFile(withBox),
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json<ImportResult>()).toMatchObject({ memories: 1, photos: 2 });
    const box = await boxOf(app, owner);
    expect(box).toMatchObject({ name: "Ann & Ben", together_since: "2019-06-01", updated_by: owner.userId });
    expect(box.cover?.id).toBe(memory.photos[0]!.id);
    // The cover's picture is the one made again here.
    expect((await app.app.inject({ method: "GET", url: box.cover!.thumbnail_url, headers: owner.headers })).statusCode).toBe(200);
    const event = await stream.waitFor((streamed) => streamed.event === "box.updated");
    expect(JSON.parse(event.data)).toEqual({ id: "box", actor: owner.userId });
    await stream.close();
  });

  it("leaves a box that has its own settings as it is, and brings the memories all the same", async () => {
    const { app, owner } = await instance();
    await setBox(app, owner, { name: null, cover_photo_id: null, together_since: "2020-02-02" });
    const before = await boxOf(app, owner);
    const lines = await cli(app, importCommand, withBox);
    expect(lines).toContain("This Memory Box keeps its own name, cover and together-since day: the archive's were left out.");
    expect(lines.at(-1)).toMatch(/^Imported 1 memories, 2 photos and 0 videos /);
    expect(await boxOf(app, owner)).toEqual(before);
    expect(await memoryIds(app, owner)).toEqual([memory.id]);
  });

  it("reads an archive without the box's settings (version 5) as before, setting none", async () => {
    const { app, owner } = await instance();
    const lines = await cli(app, importCommand, withoutBox);
    expect(lines.some((line) => line.includes("together-since"))).toBe(false);
    expect(await memoryIds(app, owner)).toEqual([memory.id]);
    expect(await boxRows(app)).toEqual([]);
  });

  it("sets the name and day, but not a cover whose memory was here already (as this box keeps it)", async () => {
    const { app, owner } = await instance();
    await cli(app, importCommand, withoutBox);
    const lines = await cli(app, importCommand, withBox);
    expect(lines).toContain("The box's settings (its name, cover or together-since day) came with it.");
    expect(lines.at(-1)).toMatch(/1 memories were already here/);
    expect(await boxOf(app, owner)).toMatchObject({ name: "Ann & Ben", cover: null, together_since: "2019-06-01" });
  });

  describe("refuses, writing neither memories nor the box's settings,", () => {
    let target: { app: TestApp; owner: TestMember };
    let count = 0;

    beforeAll(async () => {
      target = await instance();
    });

    /** The archive with the box's settings, its ids new (nothing of it here already), changed by `change`. */
    async function altered(change: (manifest: ArchiveManifest, entries: Map<string, Buffer>) => void): Promise<string> {
      count += 1;
      const renewed = (text: string) =>
        text.replaceAll(/[0-9a-f]{8}-[0-9a-f]{4}-4/g, (id) => `${count.toString(16).padStart(8, "0")}${id.slice(8)}`);
      const entries = new Map([...(await zipEntries(withBox))].map(([entry, bytes]) => [renewed(entry), bytes]));
      const manifest = ArchiveManifest.parse(JSON.parse(renewed(entries.get("memory-box.json")!.toString())));
      change(manifest, entries);
      entries.set("memory-box.json", Buffer.from(JSON.stringify(manifest)));
      const file = path.join(workDir, `altered-${count}.zip`);
      await writeZip(file, [...entries]);
      return file;
    }

    async function refused(file: string): Promise<string> {
      const error = await cli(target.app, importCommand, file).then(
        () => undefined,
        (failure: unknown) => failure as Error,
      );
      expect(error).toBeInstanceOf(Error);
      expect(await memoryIds(target.app, target.owner)).toEqual([]);
      expect(await boxRows(target.app)).toEqual([]);
      return error!.message;
    }

    const refusals: [string, (box: ArchiveBox) => void, string | RegExp][] = [
      [
        "a cover that is none of the archive's photos",
        (box) => {
          box.cover_photo_id = unknownId;
        },
        `Nothing was imported. The box's cover in the archive is not one of the archive's photos (${unknownId}).`,
      ],
      [
        "a name of 81 characters",
        (box) => {
          box.name = "n".repeat(81);
        },
        /longer than 80 characters/,
      ],
      [
        "a day in the future",
        (box) => {
          box.together_since = dayFromToday(3);
        },
        /up to today/,
      ],
      [
        "a day before the year 1000",
        (box) => {
          box.together_since = "0999-12-31";
        },
        /from the year 1000 up to today: "0999-12-31"/,
      ],
      [
        "a day that is no day",
        (box) => {
          box.together_since = "2023-02-29";
        },
        /"2023-02-29"/,
      ],
    ];

    it.each(refusals)("%s", async (_case, change, message) => {
      const file = await altered((manifest) => change(manifest.box!));
      expect(await refused(file)).toMatch(message);
    });

    it("a cover the archive calls a video", async () => {
      const file = await altered((manifest) => {
        manifest.memories[0]!.photos.find((photo) => photo.id === manifest.box!.cover_photo_id)!.kind = "video";
      });
      expect(await refused(file)).toMatch(/The box's cover in the archive is a video/);
    });

    it("a photo after the cover that cannot be imported: the cover's photo is removed again, and no setting is left", async () => {
      const file = await altered((manifest, entries) => {
        const last = manifest.memories[0]!.photos.at(-1)!;
        expect(last.id).not.toBe(manifest.box!.cover_photo_id);
        entries.set(last.file, Buffer.from("%PDF-1.7 not a photo at all".padEnd(last.bytes, " ")));
      });
      expect(await refused(file)).toMatch(/cannot be imported/);
    });

    it("and takes the same archive, unaltered, afterwards", async () => {
      await cli(target.app, importCommand, withBox);
      expect(await boxOf(target.app, target.owner)).toMatchObject({ name: "Ann & Ben", together_since: "2019-06-01" });
    });
  });
});
