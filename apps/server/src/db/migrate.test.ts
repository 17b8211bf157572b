import { Migrator, NO_MIGRATIONS } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openMigratedTestDatabase, testEngines } from "../../test/test-database";
import { InstanceSettingsRepository } from "../modules/instance/instance-settings.repository";
import { latestMigration, migrateToLatest } from "./migrate";
import { migrations } from "./migrations";

describe.each(testEngines)("migrations on %s", (engine) => {
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
});

describe.each(testEngines)("instance settings on %s", (engine) => {
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
});
