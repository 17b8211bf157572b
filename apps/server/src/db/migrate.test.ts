import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { type Migration, Migrator, NO_MIGRATIONS } from "kysely/migration";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { memoryRow } from "../../test/memory-rows";
import { photoRow } from "../../test/photo-rows";
import { openMigratedTestDatabase, testEngines } from "../../test/test-database";
import { InstanceSettingsRepository } from "../modules/instance/instance-settings.repository";
import { MemoriesRepository } from "../modules/memories/memories.repository";
import { latestMigration, migrateToLatest, renamedMigrations } from "./migrate";
import { migrations } from "./migrations";

describe.each(testEngines())("migrations on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  beforeEach(async () => {
    database = await openMigratedTestDatabase(engine);
  });
  afterEach(() => database.close());

  it("applies every migration once, in order", async () => {
    const applied = await database.db
      .selectFrom("kysely_migration" as never)
      .select("name" as never)
      .orderBy("timestamp" as never)
      .execute();
    expect(applied.map((row) => (row as { name: string }).name)).toEqual(Object.keys(migrations));
    expect(await migrateToLatest(database.db)).toEqual([]);
    expect(latestMigration).toBe(Object.keys(migrations).at(-1));
  });

  it("can be rolled all the way back and applied again", async () => {
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    const down = await migrator.migrateTo(NO_MIGRATIONS);
    expect(down.error).toBeUndefined();
    expect(await migrateToLatest(database.db)).toEqual(Object.keys(migrations));
  });

  it("takes a database that applied migrations under their old names to the new names, running none again", async () => {
    const oldNames = Object.fromEntries(Object.entries(renamedMigrations).map(([oldName, newName]) => [newName, oldName]));
    const withOldNames: Record<string, Migration> = Object.fromEntries(
      // The list as a server of the days before the rename had it: up to the last renamed one.
      Object.entries(migrations)
        .slice(0, Object.keys(migrations).indexOf("2026_11_26_150000_add_sso_providers") + 1)
        .map(([name, migration]) => [oldNames[name] ?? name, migration]),
    );
    const oldMigrator = new Migrator({ db: database.db, provider: { getMigrations: () => Promise.resolve(withOldNames) } });
    const lastBeforeRenamed = "2026_11_26_120000_add_comments_and_reactions";
    const current = new Migrator({ db: database.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    expect((await current.migrateTo(lastBeforeRenamed)).error).toBeUndefined();
    // As a server of the days before the rename migrated it.
    expect((await oldMigrator.migrateToLatest()).error).toBeUndefined();
    expect(await appliedNames()).toEqual(Object.keys(withOldNames));

    // The renamed ones are not run again; only what came after the rename is.
    const names = Object.keys(migrations);
    expect(await migrateToLatest(database.db)).toEqual(names.slice(names.indexOf("2026_11_26_150000_add_sso_providers") + 1));
    expect(await appliedNames()).toEqual(Object.keys(migrations));
    expect(await migrateToLatest(database.db)).toEqual([]);
    // What the renamed migrations made is still there and in use.
    expect(await database.db.selectFrom("sso_providers").selectAll().execute()).toEqual([]);
    expect(await database.db.selectFrom("identities").selectAll().execute()).toEqual([]);
  });

  it("runs the renamed migrations a database had not reached, under their new names", async () => {
    const current = new Migrator({ db: database.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    expect((await current.migrateTo("2026_11_26_130000_count_responses_apart")).error).toBeUndefined();
    await sql`update kysely_migration set name = '2026_11_27_100000_count_responses_apart' where name = '2026_11_26_130000_count_responses_apart'`.execute(
      database.db,
    );

    const names = Object.keys(migrations);
    expect(await migrateToLatest(database.db)).toEqual(names.slice(names.indexOf("2026_11_26_140000_add_identities")));
    expect(await appliedNames()).toEqual(Object.keys(migrations));
  });

  async function appliedNames(): Promise<string[]> {
    const rows = await database.db
      .selectFrom("kysely_migration" as never)
      .select("name" as never)
      .orderBy("timestamp" as never)
      .orderBy("name" as never)
      .execute();
    return rows.map((row) => (row as { name: string }).name);
  }

  it("counts the memories already there and copies their sort keys into their tags, and rolls back with them", async () => {
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    const countersMigration = "2026_11_21_120000_add_memory_list_counters";
    const previous = Object.keys(migrations)[Object.keys(migrations).indexOf(countersMigration) - 1]!;
    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    const memories = ["a", "b", "c"].map((letter, index) => ({
      id: `5e1d0c2b-0000-4000-8000-00000000000${index}`,
      title: letter,
      content: null,
      memory_date: null,
      user_id: null,
      updated_by: null,
      created_at: "2026-01-01T00:00:00.000Z",
      updated_at: "2026-01-01T00:00:00.000Z",
      version: 1,
      sort_key: `0000-00-00|2026-01-01T00:00:00.000Z|${letter}`,
      search_text: letter,
    }));
    await database.db.insertInto("memories").values(memories).execute();
    // The table as it was: no sort_key column yet.
    await sql`insert into memory_tags (memory_id, position, tag, tag_key) values (${memories[0]!.id}, 0, 'Sea', 'sea'), (${memories[1]!.id}, 0, 'sea', 'sea'), (${memories[1]!.id}, 1, 'sun', 'sun')`.execute(
      database.db,
    );

    expect(await migrateToLatest(database.db)).toEqual([
      countersMigration,
      ...Object.keys(migrations).slice(Object.keys(migrations).indexOf(countersMigration) + 1),
    ]);
    const stats = await database.db.selectFrom("memory_stats").selectAll().execute();
    expect(stats.map((row) => ({ id: row.id, total: Number(row.total) }))).toEqual([{ id: 1, total: 3 }]);
    const tags = await database.db
      .selectFrom("memory_tags")
      .select(["memory_id", "sort_key"])
      .orderBy("memory_id")
      .orderBy("position")
      .execute();
    expect(tags).toEqual([
      { memory_id: memories[0]!.id, sort_key: memories[0]!.sort_key },
      { memory_id: memories[1]!.id, sort_key: memories[1]!.sort_key },
      { memory_id: memories[1]!.id, sort_key: memories[1]!.sort_key },
    ]);

    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    expect(await migrateToLatest(database.db)).toContain(countersMigration);
    expect(Number((await database.db.selectFrom("memory_stats").select("total").executeTakeFirstOrThrow()).total)).toBe(3);
  });

  it("files the memories already there in the search index by day, and rolls back to the index as it was", async () => {
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    const byDay = "2026_11_28_283000_order_sqlite_search_by_day";
    const previous = Object.keys(migrations)[Object.keys(migrations).indexOf(byDay) - 1]!;
    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    const older = memoryRow({ title: "Harbour lights", memory_date: "2001-02-03", search_text: "harbour lights" });
    const newer = memoryRow({ title: "Harbour walk", memory_date: "2019-08-07", search_text: "harbour walk" });
    const undated = memoryRow({ title: "Harbour, some day", search_text: "harbour, some day" });
    await database.db.insertInto("memories").values([newer, undated, older]).execute();

    expect(await migrateToLatest(database.db)).toEqual(Object.keys(migrations).slice(Object.keys(migrations).indexOf(byDay)));
    const memories = new MemoriesRepository(database.db, engine);
    const page = await memories.page({ q: "harbour" }, undefined, 10);
    expect(page.records.map((memory) => memory.title)).toEqual(["Harbour walk", "Harbour lights", "Harbour, some day"]);
    expect(await memories.countMatched({ q: "harbour" })).toBe(3);
    expect(await memories.monthCounts({ q: "harbour" })).toEqual([
      { month: "2019-08", count: 1 },
      { month: "2001-02", count: 1 },
      { month: "0000-00", count: 1 },
    ]);

    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    if (engine === "sqlite") {
      // The index as it was: filed under the memories' own rowids.
      const { rows } = await sql<{
        rowid: number;
      }>`select rowid from memories_search where memories_search match 'harbour' order by rowid`.execute(database.db);
      const { rows: own } = await sql<{ rowid: number }>`select rowid from memories order by rowid`.execute(database.db);
      expect(rows).toEqual(own);
    }
    expect(await migrateToLatest(database.db)).toContain(byDay);
    expect(await memories.countMatched({ q: "harbour" })).toBe(3);
  });
});

describe.each(testEngines())("places' migration on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  beforeEach(async () => {
    database = await openMigratedTestDatabase(engine);
  });
  afterEach(() => database.close());
  const placesMigration = "2026_11_28_224000_count_places_and_read_old_photo_locations";
  const before = async () => {
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    expect((await migrator.migrateTo(NO_MIGRATIONS)).error).toBeUndefined();
    const previous = Object.keys(migrations)[Object.keys(migrations).indexOf(placesMigration) - 1]!;
    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
  };
  const jobs = () => database.db.selectFrom("media_jobs").select(["kind", "subject_id", "state"]).execute();

  it("queues the read of older stills' positions once, only when some have none, and counts the placed memories", async () => {
    await before();
    await database.db
      .insertInto("photos")
      .values([
        photoRow("old/still"),
        photoRow("old/placed", { latitude: 38.8, longitude: -9.4 }),
        photoRow("old/video", { kind: "video" }),
      ])
      .execute();
    await database.db
      .insertInto("memories")
      .values({
        id: "5e1d0c2b-0000-4000-8000-000000000001",
        title: "Placed",
        content: null,
        memory_date: null,
        user_id: null,
        updated_by: null,
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:00.000Z",
        version: 1,
        sort_key: "0000-00-00|2026-01-01T00:00:00.000Z|placed",
        search_text: "placed",
        place_name: "Sintra",
        place_latitude: 38.8,
        place_longitude: -9.4,
        place_x: 1,
        place_y: 1,
      })
      .execute();
    expect(await migrateToLatest(database.db)).toContain(placesMigration);
    expect(await jobs()).toEqual([{ kind: "photo.locations", subject_id: "", state: "queued" }]);
    expect(Number((await database.db.selectFrom("memory_stats").select("placed").executeTakeFirstOrThrow()).placed)).toBe(1);
  });

  it("queues nothing when every still has a position or there are none", async () => {
    await before();
    await database.db
      .insertInto("photos")
      .values(photoRow("old/placed", { latitude: 1, longitude: 2 }))
      .execute();
    expect(await migrateToLatest(database.db)).toContain(placesMigration);
    expect(await jobs()).toEqual([]);
  });
});

describe("migration names", () => {
  const names = Object.keys(migrations);

  it("are dated, in order, and no later than today anywhere on Earth", () => {
    // Dated after the day it is committed, a migration would sort after ones written later.
    const latestToday = new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10);
    for (const name of names) {
      // The six digits after the date only order the day's migrations (some are not clock times).
      const match = /^(\d{4})_(\d{2})_(\d{2})_\d{6}_[a-z]+(?:_[a-z]+)*$/.exec(name);
      expect(match, name).not.toBeNull();
      const date = `${match![1]}-${match![2]}-${match![3]}`;
      expect(new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10), name).toBe(date);
      expect(date <= latestToday, `${name} is dated after ${latestToday}`).toBe(true);
    }
    expect(names).toEqual([...names].sort());
  });

  it("list every migration file, and none under a renamed migration's old name", async () => {
    const folder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");
    const files = (await fs.readdir(folder)).filter((file) => /^\d{4}_/.test(file)).map((file) => file.replace(/\.ts$/, ""));
    expect(files.sort()).toEqual(names);
    for (const [oldName, newName] of Object.entries(renamedMigrations)) {
      expect(names).not.toContain(oldName);
      expect(names).toContain(newName);
    }
  });
});

describe.each(testEngines())("instance settings on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  let settings: InstanceSettingsRepository;
  beforeEach(async () => {
    database = await openMigratedTestDatabase(engine);
    settings = new InstanceSettingsRepository(database.db);
  });
  afterEach(() => database.close());

  it("stores, reads and replaces a value", async () => {
    expect(await settings.get("greeting")).toBeUndefined();
    await settings.put("greeting", "hello");
    await settings.put("greeting", "hello again");
    expect(await settings.get("greeting")).toBe("hello again");
  });

  it("keeps the first value when two writers race to set it", async () => {
    const [first, second] = await Promise.all([settings.putIfAbsent("key", "a"), settings.putIfAbsent("key", "b")]);
    expect(first).toBe(second);
    expect(await settings.get("key")).toBe(first);
  });

  it("folds the search text of the memories already there, so an accent-free search finds them", async () => {
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    const foldMigration = "2026_11_24_400000_fold_search_text";
    const previous = Object.keys(migrations)[Object.keys(migrations).indexOf(foldMigration) - 1]!;
    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    const id = "5e1d0c2b-0000-4000-8000-0000000000aa";
    await database.db
      .insertInto("memories")
      .values({
        id,
        title: "Café in Zürich",
        content: "Crème brûlée",
        memory_date: null,
        user_id: null,
        updated_by: null,
        created_at: "2026-01-01T00:00:00.000Z",
        updated_at: "2026-01-01T00:00:00.000Z",
        version: 1,
        sort_key: `0000-00-00|2026-01-01T00:00:00.000Z|${id}`,
        // As the search text was stored before: lower-cased, accents kept.
        search_text: "café in zürich\ncrème brûlée\nnaïve",
      })
      .execute();
    await sql`insert into memory_tags (memory_id, position, tag, tag_key, sort_key) values (${id}, 0, 'Naïve', 'naïve', ${`0000-00-00|2026-01-01T00:00:00.000Z|${id}`})`.execute(
      database.db,
    );

    expect(await migrateToLatest(database.db)).toEqual(
      Object.keys(migrations).slice(Object.keys(migrations).indexOf(foldMigration)),
    );
    const row = await database.db.selectFrom("memories").select("search_text").where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.search_text).toBe("cafe in zurich\ncreme brulee\nnaive");
  });

  it("makes the first member who joined an existing instance its owner", async () => {
    const migrator = new Migrator({ db: database.db, provider: { getMigrations: () => Promise.resolve(migrations) } });
    const rolesMigration = "2026_11_25_100000_add_member_roles";
    const previous = Object.keys(migrations)[Object.keys(migrations).indexOf(rolesMigration) - 1]!;
    expect((await migrator.migrateTo(previous)).error).toBeUndefined();
    const invitation = (email: string, usedAt: string | null) =>
      sql`insert into invitations (email, invited_by, invited_at, used_at, used_by) values (${email}, 'cli', '2026-01-01T00:00:00.000Z', ${usedAt}, null)`.execute(
        database.db,
      );
    await invitation("pending@x.org", null);
    await invitation("second@x.org", "2026-02-01T00:00:00.000Z");
    await invitation("first@x.org", "2026-01-15T00:00:00.000Z");

    expect(await migrateToLatest(database.db)).toContain(rolesMigration);
    const rows = await database.db.selectFrom("invitations").select(["email", "role"]).orderBy("email").execute();
    expect(rows).toEqual([
      { email: "first@x.org", role: "owner" },
      { email: "pending@x.org", role: "member" },
      { email: "second@x.org", role: "member" },
    ]);
  });
});
