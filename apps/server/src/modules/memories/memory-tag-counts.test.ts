import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryRow } from "../../../test/memory-rows";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { MemoriesRepository } from "./memories.repository";

/**
 * A one-tag filter's matched count reads `memory_tag_counts`, which triggers keep (migration
 * 2026_11_28_282000) instead of counting the tag's index entries per request (issue #37, the
 * lifetime benchmark). Whatever writes the tags, straight in SQL here, past the repository, the
 * kept count must be the one counting gives: bulk inserts, a tag renamed or merged into another,
 * tags removed, a memory deleted with its tags.
 */
describe.each(testEngines())("the tag counts kept for the tag filter, on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  const ids = [randomUUID(), randomUUID(), randomUUID()];

  /** Each key's count as the filter answers it, and as counting the tag rows gives. */
  const both = async (keys: string[]) => {
    const repository = new MemoriesRepository(database.db, engine);
    const kept: Record<string, number> = {};
    const counted: Record<string, number> = {};
    for (const key of keys) {
      kept[key] = await repository.countMatched({ tag: key });
      const { rows } = await sql<{ count: number }>`select count(*) as count from memory_tags where tag_key = ${key}`.execute(
        database.db,
      );
      counted[key] = Number(rows[0]!.count);
    }
    return { kept, counted };
  };

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    await database.db
      .insertInto("memories")
      .values(ids.map((id) => memoryRow({ id, memory_date: "2024-05-01" })))
      .execute();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("follows every write to the tags", async () => {
    const tag = (memoryId: string, position: number, name: string) => ({
      memory_id: memoryId,
      position,
      tag: name,
      tag_key: name.toLowerCase(),
    });
    // One statement: PostgreSQL's triggers see the rows together.
    await database.db
      .insertInto("memory_tags")
      .values([tag(ids[0]!, 0, "Summer"), tag(ids[0]!, 1, "sea"), tag(ids[1]!, 0, "summer"), tag(ids[2]!, 0, "Sea")])
      .execute();
    expect(await both(["summer", "sea", "winter"])).toEqual({
      kept: { summer: 2, sea: 2, winter: 0 },
      counted: { summer: 2, sea: 2, winter: 0 },
    });

    // A rename, and a merge into a tag a memory had not got.
    await database.db
      .updateTable("memory_tags")
      .set({ tag: "Winter", tag_key: "winter" })
      .where("tag_key", "=", "summer")
      .execute();
    await database.db
      .updateTable("memory_tags")
      .set({ tag: "Winter", tag_key: "winter" })
      .where("tag_key", "=", "sea")
      .where("memory_id", "=", ids[2]!)
      .execute();
    await database.db
      .updateTable("memory_tags")
      .set({ position: sql<number>`position + 10` })
      .execute(); // no key changes
    let counts = await both(["summer", "sea", "winter"]);
    expect(counts.kept).toEqual(counts.counted);
    expect(counts.kept).toEqual({ summer: 0, sea: 1, winter: 3 });

    await database.db.deleteFrom("memory_tags").where("memory_id", "=", ids[1]!).execute();
    await database.db.deleteFrom("memories").where("id", "=", ids[0]!).execute(); // its tags go with it
    counts = await both(["summer", "sea", "winter"]);
    expect(counts.kept).toEqual(counts.counted);
    expect(counts.kept).toEqual({ summer: 0, sea: 0, winter: 1 });
  });
});
