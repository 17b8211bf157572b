import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMigratedTestDatabase, testEngines } from "../../test/test-database";
import { preparedQuery } from "./prepared-query";

describe.each(testEngines())("preparedQuery on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    const at = "2026-01-01T00:00:00.000Z";
    await database.db
      .insertInto("invitations")
      .values(
        ["ann@memory-box.test", "ben@memory-box.test", "cat@memory-box.test"].map((email) => ({
          email,
          invited_by: "test",
          invited_at: at,
        })),
      )
      .execute();
  });
  afterAll(() => database.close());

  it("runs the query built once with each call's arguments, keeping the values the query wrote itself", async () => {
    const invited = preparedQuery((first: string, second: string) =>
      database.db
        .selectFrom("invitations")
        .select("email")
        .where((eb) => eb.or([eb("email", "=", first), eb("email", "=", second), eb("email", "=", "cat@memory-box.test")]))
        .orderBy("email"),
    );
    expect((await invited(database.db, "ann@memory-box.test", "nobody@memory-box.test")).rows).toEqual([
      { email: "ann@memory-box.test" },
      { email: "cat@memory-box.test" },
    ]);
    expect((await invited(database.db, "nobody@memory-box.test", "ben@memory-box.test")).rows).toEqual([
      { email: "ben@memory-box.test" },
      { email: "cat@memory-box.test" },
    ]);
    // The order of the arguments is the function's, not the order they appear in the SQL.
    const reversed = preparedQuery((later: string, earlier: string) =>
      database.db.selectFrom("invitations").select("email").where("email", "in", [earlier, later]).orderBy("email", "desc"),
    );
    expect((await reversed(database.db, "ann@memory-box.test", "ben@memory-box.test")).rows).toEqual([
      { email: "ben@memory-box.test" },
      { email: "ann@memory-box.test" },
    ]);
  });

  it("runs inside the transaction it is given", async () => {
    const addInvitation = preparedQuery((email: string) =>
      database.db.insertInto("invitations").values({ email, invited_by: "test", invited_at: "2026-01-01T00:00:00.000Z" }),
    );
    await expect(
      database.db.transaction().execute(async (trx) => {
        await addInvitation(trx, "rolled-back@memory-box.test");
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    const count = await database.db
      .selectFrom("invitations")
      .select("email")
      .where("email", "=", "rolled-back@memory-box.test")
      .execute();
    expect(count).toEqual([]);
    const result = await addInvitation(database.db, "kept@memory-box.test");
    expect(result.numAffectedRows).toBe(1n);
  });

  it("refuses a query that does not use every argument as a value", async () => {
    const unused = preparedQuery((email: string) =>
      database.db
        .selectFrom("invitations")
        .select("email")
        .where("email", "=", email.length > 0 ? "x" : "y"),
    );
    await expect(unused(database.db, "ann@memory-box.test")).rejects.toThrow(/every argument/);
  });
});
