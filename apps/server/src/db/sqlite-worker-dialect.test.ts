import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteWorkerDialect } from "./sqlite-worker-dialect";

// The dialect an import's save runs on (ADR 0087): Kysely on the event loop, SQLite on a worker.

interface Notes {
  notes: { id: number; body: string; attachment: Uint8Array | null };
}

describe("SqliteWorkerDialect", () => {
  let folder: string;
  let db: Kysely<Notes>;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "memory-box-worker-dialect-"));
    db = new Kysely<Notes>({
      dialect: new SqliteWorkerDialect(path.join(folder, "notes.db"), {
        synchronous: "full",
        lockWaitMs: 1_000,
        cacheSize: -2_000,
      }),
    });
    await sql`create table notes (id integer primary key, body text not null, attachment blob)`.execute(db);
  });
  afterAll(async () => {
    await db?.destroy();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it("answers queries asked at once, one after another on its one connection", async () => {
    const counts = await Promise.all(
      Array.from({ length: 5 }, (_, i) => sql<{ n: number }>`select ${i} as n`.execute(db).then((result) => result.rows[0]!.n)),
    );
    expect(counts).toEqual([0, 1, 2, 3, 4]);
  });

  it("writes and reads back text and bytes, and tells how many rows a write changed", async () => {
    const inserted = await db
      .insertInto("notes")
      .values({ id: 1, body: "first", attachment: Buffer.from([1, 2, 3]) })
      .executeTakeFirstOrThrow();
    expect(inserted.insertId).toBe(1n);
    const updated = await db.updateTable("notes").set({ body: "first, again" }).where("id", "=", 1).executeTakeFirstOrThrow();
    expect(updated.numUpdatedRows).toBe(1n);
    const row = await db.selectFrom("notes").selectAll().where("id", "=", 1).executeTakeFirstOrThrow();
    expect(row.body).toBe("first, again");
    expect([...row.attachment!]).toEqual([1, 2, 3]);
  });

  it("rolls a failed transaction back whole, and gives the driver's error with its code", async () => {
    const failing = db.transaction().execute(async (trx) => {
      await trx.insertInto("notes").values({ id: 2, body: "second", attachment: null }).execute();
      await trx.insertInto("notes").values({ id: 2, body: "second again", attachment: null }).execute();
    });
    await expect(failing).rejects.toMatchObject({ code: "SQLITE_CONSTRAINT_PRIMARYKEY" });
    expect(await db.selectFrom("notes").select("id").where("id", "=", 2).execute()).toEqual([]);
  });
});
