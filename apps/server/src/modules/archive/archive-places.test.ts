import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import type { Memory, MemoryPage } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { runCommand } from "../../../test/run-command";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { exportCommand } from "../../cli/export.command";
import { importCommand } from "../../cli/import.command";
import { ZipReader } from "../../lib/zip-reader";
import { ArchiveManifest, memoryPage } from "./archive-format";

// Issue #32: the archive carries each memory's place (version 4), its pages show it, and an
// import brings it back.

const sintra = { name: "Sintra", latitude: 38.8029, longitude: -9.3817 };

const run = runCommand;

describe.each(testEngines())("places in the archive on %s", (engine) => {
  let from: TestApp;
  let to: TestApp;
  let ann: TestMember;
  let annThere: TestMember;
  let workDir: string;
  let placed: Memory;
  let unplaced: Memory;

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-archive-places-"));
    from = await createTestApp(engine, {
      env: { AUTH_RATE_LIMITS: "false" },
      countryAt: async ({ longitude }) => (longitude < -6 && longitude > -10 ? "PT" : null),
    });
    to = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(from, "ann@memory-box.test", "Ann");
    annThere = await createMember(to, "ann@memory-box.test", "Ann");
    const create = async (payload: object) =>
      (await from.app.inject({ method: "POST", url: "/api/v1/memories", headers: ann.headers, payload })).json<Memory>();
    placed = await create({ title: "Palace in the fog", place: sintra });
    unplaced = await create({ title: "At home" });
  });
  afterAll(async () => {
    await Promise.all([from.close(), to.close()]);
    await fs.rm(workDir, { recursive: true, force: true });
  });

  it("writes version 4 with each memory's place, shows it on its page, and reads it back", async () => {
    const file = path.join(workDir, "places.zip");
    await run(from, exportCommand, file);
    const zip = await ZipReader.open(file, { maxEntries: 100 });
    try {
      const manifest = ArchiveManifest.parse(JSON.parse((await buffer(await zip.open("memory-box.json"))).toString()));
      expect(manifest.version).toBe(4);
      const byId = new Map(manifest.memories.map((memory) => [memory.id, memory]));
      expect(byId.get(placed.id)!.place).toEqual({ ...sintra, country_code: "PT" });
      expect(byId.get(unplaced.id)!).not.toHaveProperty("place");
      const page = (await buffer(await zip.open(memoryPage(placed.id)))).toString();
      expect(page).toContain("Where: Sintra, Portugal");
      expect(page).toContain("38.8029, -9.3817");
      expect((await buffer(await zip.open(memoryPage(unplaced.id)))).toString()).not.toContain('class="place"');
    } finally {
      zip.close();
    }

    await run(to, importCommand, file);
    const page = (await to.app.inject({ method: "GET", url: "/api/v1/memories", headers: annThere.headers })).json<MemoryPage>();
    const imported = new Map(page.items.map((memory) => [memory.id, memory]));
    // The lookup here knows no country: the archive's, found from the same point, is kept.
    expect(imported.get(placed.id)!.place).toEqual({ ...sintra, country_code: "PT" });
    expect(imported.get(unplaced.id)!.place).toBeNull();
    const found = (
      await to.app.inject({ method: "GET", url: "/api/v1/memories?q=sintra", headers: annThere.headers })
    ).json<MemoryPage>();
    expect(found.items.map((memory) => memory.id)).toEqual([placed.id]);
  });

  it("writes an archive without places as version 3 or 2, as before places", async () => {
    await from.app.inject({
      method: "PUT",
      url: `/api/v1/memories/${placed.id}`,
      headers: ann.headers,
      payload: { title: "Palace in the fog", place: null },
    });
    const file = path.join(workDir, "no-places.zip");
    await run(from, exportCommand, file);
    const zip = await ZipReader.open(file, { maxEntries: 100 });
    try {
      const manifest = ArchiveManifest.parse(JSON.parse((await buffer(await zip.open("memory-box.json"))).toString()));
      expect(manifest.version).toBe(2);
      expect(manifest.memories.every((memory) => memory.place === undefined)).toBe(true);
    } finally {
      zip.close();
    }
  });
});
