import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, openMigratedTestDatabase, type TestDatabase, testEngines } from "../../test/test-database";
import type { DatabaseHandle } from "../db/database";
import { clearInvitationData, insertMemberWithSession } from "../modules/invitations/test-helpers";
import { UsageError } from "./command";
import { inviteCommand } from "./invite.command";
import { runCli } from "./run-cli";

describe.each(testEngines())("the invite command on %s", (engine) => {
  let database: DatabaseHandle & { close(): Promise<void> };
  let lines: string[];

  const invite = (...args: string[]) => inviteCommand.run({ args, db: database.db, out: (line) => lines.push(line) });

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await clearInvitationData(database.db);
    lines = [];
  });

  it("invites addresses and says which were already invited", async () => {
    await invite("b@y.org");
    lines = [];
    await invite("A@X.org", "b@y.org");
    expect(lines).toEqual(["Invited a@x.org", "Already invited b@y.org"]);
    const rows = await database.db.selectFrom("invitations").select(["email", "invited_by"]).orderBy("email").execute();
    expect(rows).toEqual([
      { email: "a@x.org", invited_by: "cli" },
      { email: "b@y.org", invited_by: "cli" },
    ]);
  });

  it("lists the invitations as a table", async () => {
    await invite("--list");
    expect(lines).toEqual(["No one is invited yet."]);

    const { userId } = await insertMemberWithSession(database.db, "a@x.org");
    await invite("a@x.org", "longer.name@example.org");
    await database.db
      .updateTable("invitations")
      .set({ used_at: "2026-11-21T10:30:00.000Z", used_by: userId })
      .where("email", "=", "a@x.org")
      .execute();
    lines = [];
    await invite("--list");

    expect(lines[0]).toMatch(/^EMAIL {2,}ROLE {2,}INVITED AT {2,}USED AT {2,}USED BY$/);
    expect(lines[1]).toMatch(
      new RegExp(`^a@x\\.org {2,}member {2}\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC {2}2026-11-21 10:30 UTC {2}${userId}$`),
    );
    expect(lines[2]).toMatch(/^longer\.name@example\.org {2}member {2}\d{4}-\d\d-\d\d \d\d:\d\d UTC {2}- {2,}-$/);
    // Columns line up.
    expect(lines[1]?.indexOf("UTC")).toBe(lines[2]?.indexOf("UTC"));
  });

  it("revokes an invitation and ends the member's sessions", async () => {
    const { sessionId } = await insertMemberWithSession(database.db, "a@x.org");
    await invite("a@x.org");
    lines = [];

    await invite("--revoke", "A@x.org");

    expect(lines).toEqual(["Revoked a@x.org; their sessions have ended."]);
    expect(await database.db.selectFrom("invitations").selectAll().execute()).toEqual([]);
    expect(await database.db.selectFrom("sessions").select("id").where("id", "=", sessionId).executeTakeFirst()).toBeUndefined();
  });

  it("names an owner: invites the address as one, or makes an invited address one", async () => {
    await invite("--owner", "Ann@x.org");
    await invite("ben@y.org");
    await invite("--owner", "ben@y.org");
    expect(lines).toEqual(["Invited ann@x.org as an owner", "Invited ben@y.org", "ben@y.org is an owner"]);
    const rows = await database.db.selectFrom("invitations").select(["email", "role"]).orderBy("email").execute();
    expect(rows).toEqual([
      { email: "ann@x.org", role: "owner" },
      { email: "ben@y.org", role: "owner" },
    ]);
    await expect(invite("--owner", "a@x.org", "b@y.org")).rejects.toBeInstanceOf(UsageError);
  });

  it("refuses to revoke the last owner who has joined", async () => {
    const { userId } = await insertMemberWithSession(database.db, "a@x.org");
    await invite("--owner", "a@x.org");
    await database.db.updateTable("invitations").set({ used_at: new Date().toISOString(), used_by: userId }).execute();
    await expect(invite("--revoke", "a@x.org")).rejects.toMatchObject({ code: "last_owner" });
    expect(await database.db.selectFrom("invitations").select("email").execute()).toEqual([{ email: "a@x.org" }]);
  });

  it("refuses to revoke an address that is not invited", async () => {
    await expect(invite("--revoke", "a@x.org")).rejects.toMatchObject({
      code: "invitation_not_found",
      message: "a@x.org is not on the invitation list",
    });
  });

  it("invites no one when an address is invalid", async () => {
    await expect(invite("a@x.org", "not-an-address", "b@y.org")).rejects.toMatchObject({
      code: "invalid_email",
      message: '"not-an-address" is not a valid e-mail address',
    });
    expect(await database.db.selectFrom("invitations").selectAll().execute()).toEqual([]);
    expect(lines).toEqual([]);
  });

  it.each([
    [["--bogus"], /Unknown option '--bogus'/],
    [[], /at least one e-mail address/],
    [["--list", "a@x.org"], /--list takes no addresses/],
    [["--revoke", "a@x.org", "b@y.org"], /--revoke takes exactly one address/],
    [["--revoke"], /argument missing/],
  ])("rejects the arguments %j as a usage error", async (args, message) => {
    const error: unknown = await invite(...args).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as UsageError).message).toMatch(message);
  });

  it("prints its usage for --help", async () => {
    await invite("--help");
    expect(lines.join("\n")).toContain("npm run invite -- --revoke <email>");
  });
});

describe.each(testEngines())("runCli on %s", (engine) => {
  let testDatabase: TestDatabase;
  let env: NodeJS.ProcessEnv;
  let out: string[];
  let err: string[];
  const run = (...argv: string[]) => runCli(argv, { env, out: (line) => out.push(line), err: (line) => err.push(line) });

  beforeAll(async () => {
    testDatabase = await createTestDatabase(engine);
    const { config } = testDatabase;
    env = { DATABASE_URL: config.engine === "sqlite" ? `sqlite:${config.file}` : config.url };
  });
  afterAll(() => testDatabase.drop());
  beforeEach(() => {
    out = [];
    err = [];
  });

  it("migrates a fresh database and runs the command", async () => {
    expect(await run("invite", "a@x.org")).toBe(0);
    expect(out).toEqual(["Invited a@x.org"]);
    expect(err).toEqual([]);
  });

  it("exits 1 with the reason when the input is invalid", async () => {
    expect(await run("invite", "nope")).toBe(1);
    expect(err).toEqual(['"nope" is not a valid e-mail address']);
    expect(await run("invite", "--bogus")).toBe(1);
    expect(err.join("\n")).toMatch(/Unknown option '--bogus'[\s\S]*Usage:\n {2}npm run invite -- <email>/);
  });

  it("exits 1 for an unknown or missing command", async () => {
    expect(await run("frobnicate")).toBe(1);
    expect(await run()).toBe(1);
    expect(err).toEqual([
      'Unknown command "frobnicate".',
      "Commands: invite, service-token, reconcile, mfa, export, import, backup, restore",
      "Name a command.",
      "Commands: invite, service-token, reconcile, mfa, export, import, backup, restore",
    ]);
  });

  it("exits 1 with the configuration problems when the environment is invalid", async () => {
    expect(
      await runCli(["invite", "--list"], {
        env: { ...env, DATABASE_URL: "mysql://db" },
        out: (line) => out.push(line),
        err: (line) => err.push(line),
      }),
    ).toBe(1);
    expect(err.join("\n")).toMatch(/^Invalid configuration:\n {2}- DATABASE_URL: must be a URL starting with postgres:/);
  });
});
