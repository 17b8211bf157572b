import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/database";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { AuditLogRepository } from "../audit/audit-log.repository";
import { InvitationsRepository } from "./invitations.repository";
import { InvitationsService, normalizeEmail } from "./invitations.service";
import { clearInvitationData, insertMemberWithSession } from "./test-helpers";

describe("normalizeEmail", () => {
  it("trims and lower-cases an address", () => {
    expect(normalizeEmail("  Ann.Lee+memories@Example.ORG\n")).toBe("ann.lee+memories@example.org");
    expect(normalizeEmail("zoë@bücher.de")).toBe("zoë@bücher.de");
  });

  it.each([
    "",
    "   ",
    "ann",
    "ann@",
    "@example.org",
    "ann@example",
    "ann@@example.org",
    "ann lee@example.org",
    "ann@example..org",
    "ann@.example.org",
    "ann@example.org.",
    "a@x.org, b@y.org",
    "Ann <ann@example.org>",
    `${"a".repeat(65)}@example.org`,
    `ann@${"d".repeat(250)}.org`,
  ])("rejects %j with 400 invalid_email", (raw) => {
    expect(() => normalizeEmail(raw)).toThrow(expect.objectContaining({ statusCode: 400, code: "invalid_email" }));
  });
});

describe.each(testEngines())("InvitationsService on %s", (engine) => {
  let database: DatabaseHandle & { close(): Promise<void> };
  let service: InvitationsService;
  let audit: AuditLogRepository;
  const now = new Date("2026-11-21T10:00:00.000Z");

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    audit = new AuditLogRepository(database.db);
    service = new InvitationsService({ invitations: new InvitationsRepository(database.db), audit, now: () => now });
  });
  afterAll(() => database.close());
  beforeEach(() => clearInvitationData(database.db));

  it("invites addresses in the order given, each once, and audits only the new ones", async () => {
    await service.invite(["bob@example.org"], "cli");
    const results = await service.invite(["Ann@Example.org", "BOB@example.org", "ann@example.org "], "cli");

    expect(results).toEqual([
      { email: "ann@example.org", added: true },
      { email: "bob@example.org", added: false },
    ]);
    expect((await service.list()).map((row) => [row.email, row.invited_by, row.invited_at])).toEqual([
      ["ann@example.org", "cli", now.toISOString()],
      ["bob@example.org", "cli", now.toISOString()],
    ]);
    const created = (await audit.list())
      .filter((entry) => entry.action === "invitation.created")
      .map((entry) => JSON.parse(entry.detail ?? "{}") as unknown);
    expect(created).toHaveLength(2);
    expect(created).toContainEqual({ email: "ann@example.org", invitedBy: "cli", role: "member" });
  });

  it("adds none of a batch when one address is invalid", async () => {
    await expect(service.invite(["ann@example.org", "not an address", "bob@example.org"], "cli")).rejects.toMatchObject({
      statusCode: 400,
      code: "invalid_email",
    });
    expect(await service.list()).toEqual([]);
    expect(await audit.list()).toEqual([]);
  });

  it("answers whether an address is invited, case-insensitively, and false for malformed input", async () => {
    await service.invite(["ann@example.org"], "cli");
    expect(await service.isInvited(" ANN@example.org")).toBe(true);
    expect(await service.isInvited("bob@example.org")).toBe(false);
    expect(await service.isInvited("not an address")).toBe(false);
    expect(await service.isInvited("")).toBe(false);
  });

  it("revokes an invitation and ends that member's sessions in one go", async () => {
    const ann = await insertMemberWithSession(database.db, "ann@example.org");
    const bob = await insertMemberWithSession(database.db, "bob@example.org");
    await service.invite(["ann@example.org", "bob@example.org"], "cli");

    expect(await service.revoke("Ann@Example.org", "cli")).toEqual({ email: "ann@example.org", sessionsEnded: 1 });

    expect(await service.isInvited("ann@example.org")).toBe(false);
    expect(
      await database.db.selectFrom("sessions").select("id").where("id", "=", ann.sessionId).executeTakeFirst(),
    ).toBeUndefined();
    expect(await database.db.selectFrom("refresh_tokens").select("id").where("session_id", "=", ann.sessionId).execute()).toEqual(
      [],
    );
    expect(
      await database.db.selectFrom("sessions").select("id").where("id", "=", bob.sessionId).executeTakeFirst(),
    ).toBeDefined();
    const revoked = (await audit.list()).find((entry) => entry.action === "invitation.revoked");
    expect(JSON.parse(revoked?.detail ?? "{}")).toEqual({ email: "ann@example.org", revokedBy: "cli", sessionsEnded: 1 });
  });

  it("answers 404 for revoking an address that is not invited, and ends no sessions", async () => {
    const ann = await insertMemberWithSession(database.db, "ann@example.org");
    await expect(service.revoke("ann@example.org", "cli")).rejects.toMatchObject({
      statusCode: 404,
      code: "invitation_not_found",
    });
    expect(
      await database.db.selectFrom("sessions").select("id").where("id", "=", ann.sessionId).executeTakeFirst(),
    ).toBeDefined();
    expect(await audit.list()).toEqual([]);
  });

  it("marks an invitation used inside the caller's transaction", async () => {
    const { userId } = await insertMemberWithSession(database.db, "ann@example.org");
    await service.invite(["ann@example.org"], "cli");
    await database.db.transaction().execute((trx) => service.markUsed("ANN@example.org", userId, trx));
    expect((await service.list())[0]).toMatchObject({ used_at: now.toISOString(), used_by: userId });
  });

  it("lets members mark only their own address", async () => {
    const ann = await insertMemberWithSession(database.db, "ann@example.org");
    await service.invite(["ann@example.org", "bob@example.org"], "cli");

    await expect(
      service.markOwnAddressUsed({ userId: ann.userId, email: "ann@example.org" }, "bob@example.org"),
    ).rejects.toMatchObject({ statusCode: 403, code: "forbidden" });
    await service.markOwnAddressUsed({ userId: ann.userId, email: "ann@example.org" }, " Ann@Example.org");

    const rows = await service.list();
    expect(rows.find((row) => row.email === "ann@example.org")).toMatchObject({ used_by: ann.userId });
    expect(rows.find((row) => row.email === "bob@example.org")).toMatchObject({ used_by: null });
  });
});
