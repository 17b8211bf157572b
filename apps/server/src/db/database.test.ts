import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase, withStatementCache } from "./database";

describe("SQLite statement cache", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-statements-"));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it("prepares each SQL text once, up to its capacity, and closes the connection", () => {
    const connection = new SQLite(path.join(dir, "cache.sqlite"));
    const database = withStatementCache(connection, 2);
    const first = database.prepare("select 1 as one");
    expect(database.prepare("select 1 as one")).toBe(first);
    expect(first.all([])).toEqual([{ one: 1 }]);
    database.prepare("select 2 as two");
    database.prepare("select 3 as three");
    expect(database.prepare("select 1 as one")).not.toBe(first);
    database.close();
    expect(connection.open).toBe(false);
  });

  it("answers correctly through Kysely when the same statements run again, in transactions and across a schema change", async () => {
    const handle = openDatabase({ engine: "sqlite", file: path.join(dir, "kysely.sqlite") });
    const db = handle.db;
    try {
      await sql`create table notes (id integer primary key, body text not null)`.execute(db);
      const read = () => sql<Record<string, unknown>>`select * from notes order by id`.execute(db).then((result) => result.rows);
      for (let i = 1; i <= 3; i += 1) await sql`insert into notes (id, body) values (${i}, ${`note ${i}`})`.execute(db);
      await expect(
        db.transaction().execute(async (trx) => {
          await sql`insert into notes (id, body) values (${4}, ${"rolled back"})`.execute(trx);
          throw new Error("abort");
        }),
      ).rejects.toThrow("abort");
      expect(await read()).toEqual([1, 2, 3].map((id) => ({ id, body: `note ${id}` })));
      // The cached `select *` must see a column added after it was prepared.
      await sql`alter table notes add column mood text`.execute(db);
      await sql`update notes set mood = ${"calm"} where id = ${2}`.execute(db);
      expect((await read())[1]).toEqual({ id: 2, body: "note 2", mood: "calm" });
      const streamed: unknown[] = [];
      for await (const row of db
        .selectFrom("notes" as never)
        .select("id" as never)
        .stream())
        streamed.push(row);
      expect(streamed).toHaveLength(3);
      expect(await read()).toHaveLength(3);
    } finally {
      await handle.destroy();
    }
  });
});
