import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { memoryRow } from "../../../test/memory-rows";
import { PlacesRepository } from "./places.repository";

/**
 * `memory_stats.placed`, the map's total, is kept by the database's triggers (migration
 * 2026_11_28_224000) whoever writes: single and bulk inserts, edits that set, move or remove a
 * place, deletes. Each step is checked against a count of the rows themselves.
 */
describe.each(testEngines())("the count of memories with a place, on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  let places: PlacesRepository;
  const memory = (place: { latitude: number; longitude: number } | null) =>
    memoryRow({
      title: "Somewhere",
      ...(place
        ? { place_name: "Here", place_latitude: place.latitude, place_longitude: place.longitude, place_x: 1, place_y: 1 }
        : {}),
    });
  const counted = async () => {
    const row = await database.db
      .selectFrom("memories")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .where("place_latitude", "is not", null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  };
  const expectKept = async (expected: number) => {
    expect(await counted()).toBe(expected);
    expect(await places.countPlaced()).toBe(expected);
  };

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    places = new PlacesRepository(database.db);
  });
  afterAll(() => database.close());

  it("follows inserts, edits and deletes, one row or many at once", async () => {
    const { db } = database;
    await expectKept(0);
    const [a, b, c, d] = [
      memory({ latitude: 38.7, longitude: -9.1 }),
      memory(null),
      memory({ latitude: 35, longitude: 135.7 }),
      memory(null),
    ];
    await db.insertInto("memories").values(a).execute();
    await expectKept(1);
    // A bulk insert of placed and unplaced memories.
    await db.insertInto("memories").values([b, c, d]).execute();
    await expectKept(2);
    // An edit that moves a place or touches another column changes nothing.
    await db.updateTable("memories").set({ place_latitude: 38.8 }).where("id", "=", a.id).execute();
    await db.updateTable("memories").set({ title: "Elsewhere" }).execute();
    await expectKept(2);
    // Setting one and removing another in one statement.
    await sql`update memories set place_latitude = case when id = ${b.id} then 10 else null end,
      place_longitude = case when id = ${b.id} then 10 else null end where id in (${b.id}, ${c.id})`.execute(db);
    await expectKept(2);
    await db.updateTable("memories").set({ place_latitude: 1, place_longitude: 1 }).where("id", "=", d.id).execute();
    await expectKept(3);
    await db.deleteFrom("memories").where("id", "in", [a.id, b.id]).execute();
    await expectKept(1);
    await db.deleteFrom("memories").execute();
    await expectKept(0);
  });

  it("is counted from the rows if the stats row was removed by hand", async () => {
    await database.db
      .insertInto("memories")
      .values(memory({ latitude: 1, longitude: 2 }))
      .execute();
    await database.db.deleteFrom("memory_stats").execute();
    expect(await places.countPlaced()).toBe(1);
  });
});
