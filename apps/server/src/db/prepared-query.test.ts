import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMigratedTestDatabase, testEngines } from "../../test/test-database";
import { preparedQuery } from "./prepared-query";

describe.each(testEngines)("preparedQuery on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    const at = "2026-01-01T00:00:00.000Z";
    await database.db
      .insertInto("invitations")
      .values(["ann@memory-box.test", "ben@memory-box.test", "cat@memory-box.test"].map((email) => ({ email, invited_by: "test", invited_at: at })))
      .execute();
  });
  afterAll(() => database.close());

  it("runs the query built once with each call's arguments, keeping the values the query wrote itself", async () => {
    const invited = preparedQuery(database.db, (first: string, second: string) =>
      database.db
        .selectFrom("invitations")
        .select("email")
        .where((eb) => eb.or([eb("email", "=", first), eb("email", "=", second), eb("email", "=", "cat@memory-box.test")]))
        .orderBy("email"),
    );
    expect(await invited("ann@memory-box.test", "nobody@memory-box.test")).toEqual([{ email: "ann@memory-box.test" }, { email: "cat@memory-box.test" }]);
    expect(await invited("nobody@memory-box.test", "ben@memory-box.test")).toEqual([{ email: "ben@memory-box.test" }, { email: "cat@memory-box.test" }]);
    // The order of the arguments is the function's, not the order they appear in the SQL.
    const reversed = preparedQuery(database.db, (later: string, earlier: string) =>
      database.db.selectFrom("invitations").select("email").where("email", "in", [earlier, later]).orderBy("email", "desc"),
    );
    expect(await reversed("ann@memory-box.test", "ben@memory-box.test")).toEqual([{ email: "ben@memory-box.test" }, { email: "ann@memory-box.test" }]);
  });

  it("refuses a query that does not use every argument as a value", async () => {
    const unused = preparedQuery(database.db, (email: string) => database.db.selectFrom("invitations").select("email").where("email", "=", email.length > 0 ? "x" : "y"));
    await expect(unused("ann@memory-box.test")).rejects.toThrow(/every argument/);
  });
});
