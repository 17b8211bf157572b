import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Memory } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember, uploadPhotoAs } from "../../../test/members";
import { runCommand } from "../../../test/run-command";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { zipEntries } from "../../../test/zip-entries";
import { exportCommand } from "../../cli/export.command";
import { importCommand } from "../../cli/import.command";
import { openDatabase } from "../../db/database";
import { writeZip } from "../../../test/dayone-export";
import { rotatedCameraJpeg, twoTone } from "../photos/fixtures/test-images";
import { ArchiveManifest, memoryPage } from "./archive-format";

// Issue #34: the archive carries a memory's cover and its photos' captions (version 5), its pages
// show them, and an import brings them back; a version-5 archive that breaks their rules is refused
// whole.

const run = runCommand;

describe.each(testEngines())("covers and captions in the archive on %s", (engine) => {
  let from: TestApp;
  let to: TestApp;
  let ann: TestMember;
  let annThere: TestMember;
  let workDir: string;
  let memory: Memory;

  const memoryThere = async (id: string) =>
    (await to.app.inject({ method: "GET", url: `/api/v1/memories/${id}`, headers: annThere.headers })).json<Memory>();
  const rowsThere = async () => {
    const database = openDatabase(to.config.database);
    try {
      return (await database.db.selectFrom("memories").select("id").execute()).length;
    } finally {
      await database.destroy();
    }
  };

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-archive-covers-"));
    from = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    to = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(from, "ann@memory-box.test", "Ann");
    annThere = await createMember(to, "ann@memory-box.test", "Ann");
    const photos = [
      await uploadPhotoAs(from, ann, await rotatedCameraJpeg(twoTone(300, 200))),
      await uploadPhotoAs(from, ann, await rotatedCameraJpeg(twoTone(200, 300))),
    ];
    const inject = async (method: "POST" | "PUT", url: string, payload: object) => {
      const response = await from.app.inject({ method, url, headers: ann.headers, payload });
      expect(response.statusCode, response.body).toBeLessThan(300);
      return response.json<Memory>();
    };
    memory = await inject("POST", "/api/v1/memories", { title: "The lake", photo_ids: photos });
    memory = await inject("PUT", `/api/v1/memories/${memory.id}/cover`, { photo_id: photos[1] });
    await inject("PUT", `/api/v1/photos/${photos[0]}/caption`, { caption: "Ben & the <swans>" });
  });
  afterAll(async () => {
    await Promise.all([from.close(), to.close()]);
    await fs.rm(workDir, { recursive: true, force: true });
  });

  it("writes version 5 with the cover and the captions, shows them on the memory's page, and reads them back", async () => {
    const file = path.join(workDir, "covers.zip");
    await run(from, exportCommand, file);
    const entries = await zipEntries(file);
    const manifest = ArchiveManifest.parse(JSON.parse(entries.get("memory-box.json")!.toString()));
    expect(manifest.version).toBe(5);
    const exported = manifest.memories.find((candidate) => candidate.id === memory.id)!;
    const [first, second] = exported.photos;
    expect(exported.cover_photo_id).toBe(second!.id);
    expect(first!.caption).toBe("Ben & the <swans>");
    expect(second).not.toHaveProperty("caption");

    // The cover leads the page, as in the app; the caption under its photo, escaped.
    const page = entries.get(memoryPage(memory.id))!.toString();
    expect(page.indexOf(second!.file)).toBeLessThan(page.indexOf(first!.file));
    expect(page).toContain("<figcaption>Ben &#38; the &#60;swans&#62;</figcaption>");
    expect(page).toContain('alt="Photo 2: open the original"');

    await run(to, importCommand, file);
    const imported = await memoryThere(memory.id);
    expect(imported.cover_photo_id).toBe(second!.id);
    expect(imported.photos.map((photo) => photo.caption ?? null)).toEqual(["Ben & the <swans>", null]);
  });

  it.each([
    [
      "a cover that is not one of the memory's photos",
      (memory: ArchiveManifest["memories"][number]) => {
        memory.cover_photo_id = "6f1b2c3d-0000-4000-8000-000000000000";
      },
      /names as its cover a photo that is not one of its own/,
    ],
    [
      "a caption longer than a caption may be",
      (memory: ArchiveManifest["memories"][number]) => {
        memory.photos[0]!.caption = "x".repeat(501);
      },
      /is longer than 500 characters/,
    ],
  ] as const)("refuses %s, and writes nothing", async (_case, change, message) => {
    const original = await zipEntries(path.join(workDir, "covers.zip"));
    const manifest = ArchiveManifest.parse(JSON.parse(original.get("memory-box.json")!.toString()));
    // New ids, so that nothing of it is already here and every rule is checked.
    const renewed = JSON.parse(
      JSON.stringify(manifest).replaceAll(/[0-9a-f]{8}-[0-9a-f]{4}-4/g, (id) => `abcdef01${id.slice(8)}`),
    ) as ArchiveManifest;
    change(renewed.memories[0]!);
    const entries = new Map(
      [...original].map(([name, bytes]) => [
        name.replaceAll(/[0-9a-f]{8}-[0-9a-f]{4}-4/g, (id) => `abcdef01${id.slice(8)}`),
        bytes,
      ]),
    );
    entries.set("memory-box.json", Buffer.from(JSON.stringify(renewed)));
    const file = path.join(workDir, `broken-${_case.length}.zip`);
    await writeZip(file, [...entries]);
    const before = await rowsThere();
    await expect(run(to, importCommand, file)).rejects.toThrow(message);
    expect(await rowsThere()).toBe(before);
  });
});
