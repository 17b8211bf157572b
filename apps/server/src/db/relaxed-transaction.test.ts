import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMigratedTestDatabase, testEngines } from "../../test/test-database";
import { relaxedDurabilityTransaction } from "./relaxed-transaction";

describe.each(testEngines())("relaxedDurabilityTransaction on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine, { durableCommits: true });
  });
  afterAll(() => database.close());

  /** SQLite: 1 is NORMAL, 2 is FULL. PostgreSQL: "off" or "on". */
  const durability = async (executor = database.db) =>
    engine === "sqlite"
      ? String((await sql<{ synchronous: number }>`pragma synchronous`.execute(executor)).rows[0]?.synchronous)
      : (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(executor)).rows[0]?.synchronous_commit;
  const invited = async (email: string) =>
    (await database.db.selectFrom("invitations").select("email").where("email", "=", email).executeTakeFirst()) !== undefined;
  const invite = (email: string) => ({ email, invited_by: "test", invited_at: "2026-01-01T00:00:00.000Z" });

  it("commits without waiting for the disk inside, and leaves every other commit durable", async () => {
    const durable = engine === "sqlite" ? "2" : "on";
    expect(await durability()).toBe(durable);
    const inside = await relaxedDurabilityTransaction(database.db, async (trx) => {
      await trx.insertInto("invitations").values(invite("relaxed@memory-box.test")).execute();
      return durability(trx);
    });
    expect(inside).toBe(engine === "sqlite" ? "1" : "off");
    expect(await invited("relaxed@memory-box.test")).toBe(true);
    expect(await durability()).toBe(durable);
  });

  it("rolls back whole on an error and still restores durable commits", async () => {
    await expect(
      relaxedDurabilityTransaction(database.db, async (trx) => {
        await trx.insertInto("invitations").values(invite("half@memory-box.test")).execute();
        throw new Error("interrupted");
      }),
    ).rejects.toThrow("interrupted");
    expect(await invited("half@memory-box.test")).toBe(false);
    expect(await durability()).toBe(engine === "sqlite" ? "2" : "on");
  });
});
