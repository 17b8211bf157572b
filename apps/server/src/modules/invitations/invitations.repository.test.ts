import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/database";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { InvitationsRepository } from "./invitations.repository";
import { clearInvitationData, insertMemberWithSession } from "./test-helpers";

describe.each(testEngines())("InvitationsRepository on %s", (engine) => {
  let database: DatabaseHandle & { close(): Promise<void> };
  let repository: InvitationsRepository;

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    repository = new InvitationsRepository(database.db);
  });
  afterAll(() => database.close());
  beforeEach(() => clearInvitationData(database.db));

  it("stores addresses trimmed and lower-cased and finds them whatever the case", async () => {
    expect(await repository.add(["  Ann@Example.ORG "], "cli", "2026-11-21T10:00:00.000Z")).toEqual(["ann@example.org"]);
    expect(await repository.get("ANN@example.org")).toEqual({
      email: "ann@example.org",
      invited_by: "cli",
      invited_at: "2026-11-21T10:00:00.000Z",
      used_at: null,
      used_by: null,
      role: "member",
    });
    expect(await repository.get("bob@example.org")).toBeUndefined();
  });

  it("ignores addresses already on the list and returns only the new ones", async () => {
    await repository.add(["ann@example.org"], "cli", "2026-11-21T10:00:00.000Z");
    const added = await repository.add(
      ["ANN@example.org", "bob@example.org", "Bob@Example.org"],
      "someone-else",
      "2026-11-22T10:00:00.000Z",
    );
    expect(added).toEqual(["bob@example.org"]);
    // The original invitation is left as it was.
    expect(await repository.get("ann@example.org")).toMatchObject({ invited_by: "cli", invited_at: "2026-11-21T10:00:00.000Z" });
    expect(await repository.add([], "cli", "2026-11-22T10:00:00.000Z")).toEqual([]);
  });

  it("lists by invitation time, then address", async () => {
    await repository.add(["zoe@example.org", "amy@example.org"], null, "2026-11-21T10:00:00.000Z");
    await repository.add(["bob@example.org"], null, "2026-11-20T10:00:00.000Z");
    expect((await repository.list()).map((row) => row.email)).toEqual(["bob@example.org", "amy@example.org", "zoe@example.org"]);
  });

  it("removes an address and says whether it was there", async () => {
    await repository.add(["ann@example.org"], null, "2026-11-21T10:00:00.000Z");
    expect(await repository.remove("Ann@Example.org")).toBe(true);
    expect(await repository.remove("ann@example.org")).toBe(false);
    expect(await repository.get("ann@example.org")).toBeUndefined();
  });

  it("marks an invitation used only once", async () => {
    const first = await insertMemberWithSession(database.db, "ann@example.org");
    const second = await insertMemberWithSession(database.db, "other@example.org");
    await repository.add(["ann@example.org"], null, "2026-11-21T10:00:00.000Z");

    expect(await repository.markUsed("ANN@example.org", first.userId, "2026-11-21T11:00:00.000Z")).toBe(true);
    expect(await repository.markUsed("ann@example.org", second.userId, "2026-11-21T12:00:00.000Z")).toBe(false);
    expect(await repository.get("ann@example.org")).toMatchObject({ used_at: "2026-11-21T11:00:00.000Z", used_by: first.userId });
    expect(await repository.markUsed("nobody@example.org", first.userId, "2026-11-21T12:00:00.000Z")).toBe(false);
  });

  it("makes the first account to join an owner when no owner is named, and only then", async () => {
    const ann = await insertMemberWithSession(database.db, "ann@example.org");
    const bob = await insertMemberWithSession(database.db, "bob@example.org");
    await repository.add(["ann@example.org", "bob@example.org"], null, "2026-11-21T10:00:00.000Z");
    await repository.markUsed("bob@example.org", bob.userId, "2026-11-21T11:00:00.000Z");
    await repository.markUsed("ann@example.org", ann.userId, "2026-11-21T12:00:00.000Z");
    expect(await repository.get("bob@example.org")).toMatchObject({ role: "owner" });
    expect(await repository.get("ann@example.org")).toMatchObject({ role: "member" });
    expect(await repository.joinedOwners(database.db)).toEqual(["bob@example.org"]);
  });

  it("keeps a named owner: an earlier joiner does not become one", async () => {
    const ann = await insertMemberWithSession(database.db, "ann@example.org");
    await repository.add(["cleo@example.org"], "cli", "2026-11-21T10:00:00.000Z", "owner");
    await repository.add(["ann@example.org"], "cli", "2026-11-21T10:00:00.000Z");
    await repository.markUsed("ann@example.org", ann.userId, "2026-11-21T11:00:00.000Z");
    expect(await repository.get("ann@example.org")).toMatchObject({ role: "member" });
    // Named, but not joined yet: not an owner who could act.
    expect(await repository.joinedOwners(database.db)).toEqual([]);
  });

  it("marks inside the caller's transaction, so a rollback undoes it", async () => {
    const { userId } = await insertMemberWithSession(database.db, "ann@example.org");
    await repository.add(["ann@example.org"], null, "2026-11-21T10:00:00.000Z");
    await expect(
      repository.transaction(async (trx) => {
        await repository.markUsed("ann@example.org", userId, "2026-11-21T11:00:00.000Z", trx);
        throw new Error("sign-up failed later");
      }),
    ).rejects.toThrow("sign-up failed later");
    expect(await repository.get("ann@example.org")).toMatchObject({ used_at: null, used_by: null });
  });

  it("deletes the sessions of the account with an address, and their refresh tokens, but no one else's", async () => {
    const ann = await insertMemberWithSession(database.db, "ann@example.org");
    const bob = await insertMemberWithSession(database.db, "bob@example.org");

    expect(await repository.deleteSessionsOfUserWithEmail("Ann@Example.org")).toBe(1);

    const sessions = await database.db.selectFrom("sessions").select("id").execute();
    expect(sessions.map((row) => row.id)).toEqual([bob.sessionId]);
    const tokens = await database.db.selectFrom("refresh_tokens").select("session_id").execute();
    expect(tokens.map((row) => row.session_id)).toEqual([bob.sessionId]);
    expect(await database.db.selectFrom("users").select("id").where("id", "=", ann.userId).executeTakeFirst()).toBeDefined();
    expect(await repository.deleteSessionsOfUserWithEmail("nobody@example.org")).toBe(0);
  });
});
