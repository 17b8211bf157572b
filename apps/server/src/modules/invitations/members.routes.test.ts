import type { InvitationSent, Member, MemberDirectory } from "@memory-box/contract";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../db/database";
import { createMember, type TestMember } from "../../../test/members";
import { extractLink, startTestSmtpServer, type TestSmtpServer } from "../../../test/smtp-test-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

const unknownId = "6f1b2c3d-0000-4000-8000-000000000000";

describe.each(testEngines())("members API on %s", (engine) => {
  let testApp: TestApp;
  let smtp: TestSmtpServer;
  let ann: TestMember;
  let ben: TestMember;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    testApp = await createTestApp(engine, {
      env: { AUTH_RATE_LIMITS: "false", SMTP_URL: smtp.url, AUTH_SITE_URL: "https://box.example" },
    });
    // The first account to join an instance without an owner becomes its owner.
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    ben = await createMember(testApp, "ben@memory-box.test", "Ben");
  });
  afterAll(async () => {
    await testApp.close();
    await smtp.close();
  });

  const request = (member: TestMember | null, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) =>
    testApp.app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload }),
      headers: member ? member.headers : {},
    });
  const directory = async (member: TestMember) => {
    const response = await request(member, "GET", "/api/v1/members");
    expect(response.statusCode, response.body).toBe(200);
    return response.json<MemberDirectory>();
  };
  const setRole = (member: TestMember, id: string, role: string) =>
    request(member, "PUT", `/api/v1/members/${id}/role`, { role });

  describe("who may call", () => {
    const routes: ["GET" | "POST" | "PUT" | "DELETE", string, object?][] = [
      ["GET", "/api/v1/members"],
      ["POST", "/api/v1/members/invitations", { email: "x@y.org" }],
      ["DELETE", "/api/v1/members/invitations/x@y.org"],
      ["DELETE", `/api/v1/members/${unknownId}`],
      ["PUT", `/api/v1/members/${unknownId}/role`, { role: "owner" }],
    ];
    it.each(routes)("%s %s needs a signed-in member", async (method, url, payload) => {
      const anonymous = await request(null, method, url, payload);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ code: "not_authenticated" });
    });

    it.each(routes.slice(1))(
      "%s %s is refused to a member who is not an owner, and changes nothing",
      async (method, url, payload) => {
        const before = await directory(ann);
        const response = await request(ben, method, url, payload);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toMatchObject({ code: "owner_only" });
        expect(await directory(ann)).toEqual(before);
      },
    );
  });

  it("shows owners everything and other members only who is in", async () => {
    const owners = await directory(ann);
    expect(owners.your_role).toBe("owner");
    expect(owners.members.map(({ email, display_name, role }) => ({ email, display_name, role }))).toEqual([
      { email: "ann@memory-box.test", display_name: "Ann", role: "owner" },
      { email: "ben@memory-box.test", display_name: "Ben", role: "member" },
    ]);
    const benSeenByOwner = owners.members[1]!;
    expect(benSeenByOwner.joined_at).toEqual(expect.any(String));
    expect(benSeenByOwner.invited_at).toEqual(expect.any(String));
    expect(benSeenByOwner.last_active_at).toEqual(expect.any(String));

    const others = await directory(ben);
    expect(others.your_role).toBe("member");
    expect(others.invitations).toEqual([]);
    for (const member of others.members) expect(Object.keys(member).sort()).toEqual(["display_name", "email", "id", "role"]);
  });

  it("invites an address by e-mail with a link to the sign-up form, lists it as pending, and takes it back", async () => {
    const response = await request(ann, "POST", "/api/v1/members/invitations", { email: " Cleo@Example.org " });
    expect(response.statusCode, response.body).toBe(201);
    const sent = response.json<InvitationSent>();
    expect(sent).toMatchObject({
      email: "cleo@example.org",
      role: "member",
      invited_by: "Ann",
      emailed: true,
      link: "https://box.example/auth?view=signup&email=cleo%40example.org",
    });

    const mail = await smtp.waitForMail("cleo@example.org");
    expect(mail.subject).toBe("Ann invited you to Memory Box");
    expect(mail.text).toContain("sign up with this address (cleo@example.org)");
    expect(extractLink(mail.text)).toBe(sent.link);
    expect(mail.html).toContain("Accept the invitation");

    expect((await directory(ann)).invitations).toEqual([
      { email: "cleo@example.org", role: "member", invited_at: sent.invited_at, invited_by: "Ann" },
    ]);

    // Inviting a pending address again sends the link again.
    const again = await request(ann, "POST", "/api/v1/members/invitations", { email: "cleo@example.org" });
    expect(again.statusCode).toBe(201);
    await smtp.waitForMail("cleo@example.org");

    const revoked = await request(ann, "DELETE", "/api/v1/members/invitations/cleo%40example.org");
    expect(revoked.statusCode, revoked.body).toBe(204);
    expect((await directory(ann)).invitations).toEqual([]);
    const invitedCheck = await testApp.app.inject({
      method: "POST",
      url: "/rest/v1/rpc/is_email_invited",
      payload: { check_email: "cleo@example.org" },
    });
    expect(invitedCheck.json()).toBe(false);

    const twice = await request(ann, "DELETE", "/api/v1/members/invitations/cleo%40example.org");
    expect(twice.statusCode).toBe(404);
    expect(twice.json()).toMatchObject({ code: "invitation_not_found" });
  });

  it("refuses bad invitations clearly and adds nothing", async () => {
    const cases: [object, number, string][] = [
      [{ email: "ben@memory-box.test" }, 409, "already_member"],
      [{ email: "BEN@memory-box.test" }, 409, "already_member"],
      [{ email: "not an address" }, 400, "invalid_email"],
      [{ email: "" }, 400, "invalid_email"],
      [{}, 400, "validation_failed"],
      [{ email: 42 }, 400, "validation_failed"],
      [{ email: `${"a".repeat(400)}@x.org` }, 400, "validation_failed"],
    ];
    for (const [payload, status, code] of cases) {
      const response = await request(ann, "POST", "/api/v1/members/invitations", payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(status);
      expect(response.json()).toMatchObject({ code });
    }
    expect((await directory(ann)).invitations).toEqual([]);
    const memberInvitation = await request(ann, "DELETE", "/api/v1/members/invitations/ben%40memory-box.test");
    expect(memberInvitation.statusCode).toBe(409);
    expect(memberInvitation.json()).toMatchObject({ code: "already_member" });
  });

  it("refuses unknown and malformed member ids", async () => {
    for (const [method, url] of [
      ["DELETE", `/api/v1/members/${unknownId}`],
      ["PUT", `/api/v1/members/${unknownId}/role`],
    ] as const) {
      const response = await request(ann, method, url, method === "PUT" ? { role: "owner" } : undefined);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: "member_not_found" });
    }
    const malformed = await request(ann, "DELETE", "/api/v1/members/not-a-uuid");
    expect(malformed.statusCode).toBe(400);
    const badRole = await setRole(ann, ben.userId, "admin");
    expect(badRole.statusCode).toBe(400);
    expect(badRole.json()).toMatchObject({ code: "validation_failed" });
  });

  describe("owners and removals", () => {
    it("makes another member owner; the last owner can neither step down nor be removed", async () => {
      const promoted = await setRole(ann, ben.userId, "owner");
      expect(promoted.statusCode, promoted.body).toBe(200);
      expect(promoted.json<Member>()).toMatchObject({ email: "ben@memory-box.test", role: "owner" });

      const annStepsDown = await setRole(ann, ann.userId, "member");
      expect(annStepsDown.statusCode).toBe(200);
      expect((await directory(ann)).your_role).toBe("member");
      expect((await setRole(ann, ann.userId, "owner")).statusCode).toBe(403);

      const benStepsDown = await setRole(ben, ben.userId, "member");
      expect(benStepsDown.statusCode).toBe(409);
      expect(benStepsDown.json()).toMatchObject({ code: "last_owner" });
      const benLeaves = await request(ben, "DELETE", `/api/v1/members/${ben.userId}`);
      expect(benLeaves.statusCode).toBe(409);
      expect(benLeaves.json()).toMatchObject({ code: "last_owner" });
      expect((await directory(ben)).members.map((member) => member.role)).toEqual(["member", "owner"]);
    });

    it("removes a member: their sessions end at once, their memories stay under their name", async () => {
      const created = await request(ann, "POST", "/api/v1/memories", { title: "Ann's day at the lake" });
      expect(created.statusCode).toBe(201);
      const memoryId = created.json<{ id: string }>().id;

      const removed = await request(ben, "DELETE", `/api/v1/members/${ann.userId}`);
      expect(removed.statusCode, removed.body).toBe(204);

      const annAfter = await request(ann, "GET", "/api/v1/memories");
      expect(annAfter.statusCode).toBe(401);
      const refreshed = await testApp.app.inject({
        method: "POST",
        url: "/auth/v1/token?grant_type=refresh_token",
        payload: { refresh_token: ann.refreshToken },
      });
      expect(refreshed.statusCode).not.toBe(200);

      const memory = await request(ben, "GET", `/api/v1/memories/${memoryId}`);
      expect(memory.json()).toMatchObject({ title: "Ann's day at the lake", profiles: { display_name: "Ann" } });
      expect((await directory(ben)).members.map((member) => member.email)).toEqual(["ben@memory-box.test"]);
    });

    it("records every change in the audit log", async () => {
      const database = openDatabase(testApp.config.database);
      try {
        const rows = await database.db.selectFrom("audit_log").select("action").execute();
        const recorded = new Set(rows.map((row) => row.action));
        for (const action of ["invitation.created", "invitation.revoked", "member.role_changed"])
          expect(recorded).toContain(action);
      } finally {
        await database.destroy();
      }
    });
  });
});

describe.each(testEngines())("members API without a mail server on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
  });
  afterAll(() => testApp.close());

  it("answers the link to pass on by hand, and keeps the mail in the outbox", async () => {
    const response = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/members/invitations",
      headers: ann.headers,
      payload: { email: "dana@example.org" },
    });
    expect(response.statusCode, response.body).toBe(201);
    const sent = response.json<InvitationSent>();
    expect(sent.emailed).toBe(false);
    expect(sent.link).toMatch(/\/auth\?view=signup&email=dana%40example\.org$/);
    // Written by the mail outbox's worker (ADR 0077) just after the answer.
    await vi.waitFor(async () => expect(await readdir(path.join(testApp.config.dataDir, "outbox"))).toHaveLength(1), {
      timeout: 5000,
      interval: 20,
    });
  });
});
