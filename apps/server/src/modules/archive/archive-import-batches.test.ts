import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { MemoryPage } from "@memory-box/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesUnder } from "../../../test/files-under";
import { writeZip } from "../../../test/dayone-export";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { importCommand } from "../../cli/import.command";
import { type DatabaseHandle, openDatabase } from "../../db/database";
import { twoTone } from "../photos/fixtures/test-images";
import { type ArchiveManifest, type ArchiveMemory, archiveVersion, photoFile } from "./archive-format";

// Issue #37: an archive of many memories is saved many rows a statement and its photos a few at
// a time. The same archive must come out as the same collection on either engine, and an import
// that fails while saving, or is stopped, must leave the instance as it was: no row, no file.

const serverRoot = path.resolve(import.meta.dirname, "../../..");

/** More memories than one statement of the import takes (10,000 bound values: 555 memories, 2,000 tags). */
const memoryCount = 1_300;
const photoCount = 40;

describe.each(testEngines())("a large archive's import on %s", (engine) => {
  let target: TestApp;
  let targetDb: DatabaseHandle;
  let ann: TestMember;
  let workDir: string;
  let jpegs: Buffer[];

  /** An archive of `memoryCount` memories by Ann, three tags each, the first `photoCount` with a photo (every other one its cover). */
  async function archive(name: string, change: (memories: ArchiveMemory[]) => void = () => {}): Promise<ArchiveManifest> {
    const memberId = randomUUID();
    const files: [string, Buffer][] = [];
    const memories = Array.from({ length: memoryCount }, (_, i): ArchiveMemory => {
      const id = randomUUID();
      const photos =
        i < photoCount
          ? [
              {
                id: randomUUID(),
                position: 0,
                taken_at: null,
                width: 40,
                height: 30,
                content_type: "image/jpeg",
                bytes: jpegs[i % jpegs.length]!.length,
                file: "",
              },
            ]
          : [];
      for (const photo of photos) {
        photo.file = photoFile(id, photo.id, photo.content_type);
        files.push([photo.file, jpegs[i % jpegs.length]!]);
      }
      const at = new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString();
      return {
        id,
        title: `Memory ${i}`,
        content: i % 2 === 0 ? `Day ${i} by the sea` : null,
        memory_date: i % 10 === 0 ? null : `20${String(10 + (i % 15)).padStart(2, "0")}-0${1 + (i % 9)}-1${i % 10}`,
        tags: ["Common", `tag ${i % 7}`, `only ${i}`],
        user_id: memberId,
        display_name: "Ann",
        created_at: at,
        updated_at: at,
        photos,
        ...(i < photoCount && i % 2 === 0 ? { cover_photo_id: photos[0]!.id } : {}),
        comments:
          i % 100 === 0
            ? [{ id: randomUUID(), user_id: memberId, display_name: "Ann", body: "Yes", created_at: at, updated_at: at }]
            : [],
        reactions: i % 100 === 0 ? [{ emoji: "❤️", user_id: memberId }] : [],
      };
    });
    change(memories);
    const manifest: ArchiveManifest = {
      format: "memory-box",
      version: archiveVersion,
      exported_at: new Date().toISOString(),
      members: [{ id: memberId, email: "ann@memory-box.test", display_name: "Ann" }],
      memories,
    };
    await writeZip(path.join(workDir, name), [["memory-box.json", Buffer.from(JSON.stringify(manifest))], ...files]);
    return manifest;
  }

  const runImport = async (file: string): Promise<string[]> => {
    const lines: string[] = [];
    const database = openDatabase(target.config.database);
    try {
      await importCommand.run({
        args: ["--as", "ann@memory-box.test", path.join(workDir, file)],
        db: database.db,
        out: (line) => lines.push(line),
        config: target.config,
      });
    } finally {
      await database.destroy();
    }
    return lines;
  };

  async function count(table: "memories" | "photos" | "memory_tags" | "comments" | "reactions"): Promise<number> {
    const row = await targetDb.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Everything that says what the target holds: its rows, its kept counts and its stored files. */
  async function targetState() {
    const stats = await targetDb.db.selectFrom("memory_stats").select("total").executeTakeFirst();
    const commonTag = await targetDb.db
      .selectFrom("memory_tag_counts")
      .select("count")
      .where("tag_key", "=", "common")
      .executeTakeFirst();
    return {
      memories: await count("memories"),
      photos: await count("photos"),
      tags: await count("memory_tags"),
      comments: await count("comments"),
      reactions: await count("reactions"),
      total: Number(stats?.total ?? 0),
      common: Number(commonTag?.count ?? 0),
      files: await filesUnder(path.join(target.config.dataDir, "storage")),
    };
  }

  beforeAll(async () => {
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-import-batches-"));
    target = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    targetDb = openDatabase(target.config.database);
    ann = await createMember(target, "ann@memory-box.test", "Ann");
    jpegs = await Promise.all([twoTone(40, 30).jpeg().toBuffer(), twoTone(40, 30).jpeg({ quality: 50 }).toBuffer()]);
  });
  afterAll(async () => {
    await targetDb?.destroy();
    await target?.close();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  it("brings every memory, tag, photo, cover, comment and reaction in, and the kept counts with them", async () => {
    const manifest = await archive("whole.zip");
    const lines = await runImport("whole.zip");
    expect(lines.at(-1)).toMatch(new RegExp(`^Imported ${memoryCount} memories, ${photoCount} photos and 0 videos`));
    expect(lines).toContain(`Saving ${memoryCount} memories`);

    const state = await targetState();
    expect(state).toMatchObject({
      memories: memoryCount,
      photos: photoCount,
      tags: memoryCount * 3,
      comments: memoryCount / 100,
      reactions: memoryCount / 100,
      total: memoryCount,
      common: memoryCount,
    });
    const covers = await targetDb.db
      .selectFrom("memories")
      .select(["id", "cover_photo_id"])
      .where("cover_photo_id", "is not", null)
      .execute();
    expect(new Map(covers.map((row) => [row.id, row.cover_photo_id]))).toEqual(
      new Map(manifest.memories.filter((memory) => memory.cover_photo_id).map((memory) => [memory.id, memory.cover_photo_id])),
    );
    // What members see: the whole list, and a tag's count (kept by triggers) and its memories.
    const page = await target.app.inject({ method: "GET", url: "/api/v1/memories?limit=5", headers: ann.headers });
    expect(page.json<MemoryPage>().total).toBe(memoryCount);
    const tagged = await target.app.inject({ method: "GET", url: "/api/v1/memories?tag=tag%203&limit=5", headers: ann.headers });
    expect(tagged.json<MemoryPage>().matched).toBe(manifest.memories.filter((memory) => memory.tags.includes("tag 3")).length);
    const stored = await targetDb.db.selectFrom("memories").select(["id", "title", "memory_date", "created_at"]).execute();
    expect(new Map(stored.map((row) => [row.id, [row.title, row.memory_date, row.created_at]]))).toEqual(
      new Map(manifest.memories.map((memory) => [memory.id, [memory.title, memory.memory_date, memory.created_at]])),
    );
  });

  it.skipIf(engine !== "postgres")(
    "leaves PostgreSQL's planner statistics new at the commit after a large import, not after a small one",
    async () => {
      // Autovacuum off for the test's table, so only the import can analyze it.
      await sql`alter table memories set (autovacuum_enabled = false)`.execute(targetDb.db);
      const estimate = async () =>
        Number(
          (await sql<{ n: number }>`select reltuples as n from pg_class where oid = 'memories'::regclass`.execute(targetDb.db))
            .rows[0]!.n,
        );
      try {
        // As many memories again as there are: analyzed, so the planner counts every one.
        const before = await count("memories");
        await archive("as-many-again.zip");
        await runImport("as-many-again.zip");
        expect(await estimate()).toBe(before + memoryCount);
        // One memory more is less than a tenth: left to autovacuum.
        await archive("one-more.zip", (memories) => memories.splice(1));
        await runImport("one-more.zip");
        expect(await count("memories")).toBe(before + memoryCount + 1);
        expect(await estimate()).toBe(before + memoryCount);
      } finally {
        await sql`alter table memories reset (autovacuum_enabled)`.execute(targetDb.db);
      }
    },
  );

  it("leaves nothing when saving fails in its last statement: no row, no stored file", async () => {
    // A failure the import cannot foresee, in the last batch of tags: the database refuses one.
    if (engine === "postgres") {
      await sql`create function refuse_boom() returns trigger language plpgsql as $$
        begin if new.tag = 'boom' then raise exception 'boom refused'; end if; return new; end $$`.execute(targetDb.db);
      await sql`create trigger refuse_boom before insert on memory_tags for each row execute function refuse_boom()`.execute(
        targetDb.db,
      );
    } else {
      await sql`create trigger refuse_boom before insert on memory_tags when new.tag = 'boom'
        begin select raise(abort, 'boom refused'); end`.execute(targetDb.db);
    }
    try {
      await archive("fails.zip", (memories) => memories.at(-1)!.tags.push("boom"));
      const before = await targetState();
      await expect(runImport("fails.zip")).rejects.toThrow(/boom refused/);
      expect(await targetState()).toEqual(before);
    } finally {
      await sql`drop trigger refuse_boom${sql.raw(engine === "postgres" ? " on memory_tags" : "")}`.execute(targetDb.db);
      if (engine === "postgres") await sql`drop function refuse_boom()`.execute(targetDb.db);
    }
  });

  it("stops on Ctrl-C while it stores photos, removing them: no row, no stored file", async () => {
    await archive("stopped.zip");
    const before = await targetState();
    const databaseUrl =
      target.config.database.engine === "sqlite" ? `sqlite:${target.config.database.file}` : target.config.database.url;
    // The operator's command in a process of its own, as `npm run import` runs it.
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        path.join(serverRoot, "src/cli.ts"),
        "import",
        "--as",
        "ann@memory-box.test",
        path.join(workDir, "stopped.zip"),
      ],
      {
        cwd: serverRoot,
        env: { ...process.env, DATA_DIR: target.config.dataDir, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    // Once a photo of this archive is stored, Ctrl-C.
    const objects = path.join(target.config.dataDir, "storage", "objects");
    const storedBefore = (await filesUnder(objects)).length;
    while ((await filesUnder(objects)).length === storedBefore && child.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 5));
    child.kill("SIGINT");
    expect(await exited).toBe(1);
    expect(output).toContain("Stopping: removing what this import stored");
    expect(output).toContain("Nothing was imported: the import was stopped.");
    expect(await targetState()).toEqual(before);
  });
});
