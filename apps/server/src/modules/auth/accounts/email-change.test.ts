import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  codeIn,
  confirmedMember,
  getUser,
  linkIn,
  openLink,
  sessionFrom,
  signedInClient,
  startAuthServer,
  uniqueEmail,
} from "../../../../test/auth-fixtures";
import { testEngines } from "../../../../test/test-database";

// A pending change of address (kept as GoTrue keeps it: new_email, email_change_sent_at), its
// withdrawal by asking for the current address again, and the owner's own new address, which needs
// no invitation while a member's does (ADR 0067).

const emailChange = /Confirm your new email address/;

describe.each(testEngines())("pending e-mail changes on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine);
  });
  afterAll(async () => {
    await server?.close();
  });

  async function isInvited(email: string): Promise<boolean> {
    const response = await server.app.inject({
      method: "POST",
      url: "/rest/v1/rpc/is_email_invited",
      payload: { check_email: email },
    });
    return response.json<boolean>();
  }

  it("shows the pending address after a reload and withdraws it when the current address is asked for", async () => {
    const member = await confirmedMember(server);
    const newEmail = uniqueEmail("pending");
    await server.invite(newEmail);
    const { auth } = server.client();
    await auth.setSession(member.session);
    expect((await auth.updateUser({ email: newEmail })).error).toBeNull();
    const mail = await server.smtp.waitForMail(newEmail, { subject: emailChange });

    // A reload reads the user again: the address waiting for confirmation is still there.
    const reloaded = (await getUser(server, member.session.access_token)).json<Record<string, unknown>>();
    expect(reloaded).toMatchObject({ email: member.email, new_email: newEmail });
    expect(typeof reloaded.email_change_sent_at).toBe("string");

    const { data, error } = await auth.updateUser({ email: member.email.toUpperCase() });
    expect(error).toBeNull();
    expect(data.user?.new_email).toBeUndefined();
    const after = (await getUser(server, member.session.access_token)).json<Record<string, unknown>>();
    expect(after.new_email).toBeUndefined();
    expect(after.email_change_sent_at).toBeUndefined();

    // The withdrawn link and code no longer change anything.
    const opened = await openLink(linkIn(mail));
    expect(JSON.stringify(opened)).not.toContain("access_token");
    const byCode = await server.client().auth.verifyOtp({ email: newEmail, token: codeIn(mail), type: "email_change" });
    expect(byCode.error).not.toBeNull();
    expect((await getUser(server, member.session.access_token)).json()).toMatchObject({ email: member.email });
  });

  it("leaves an account with nothing pending as it was when the current address is asked for", async () => {
    const member = await confirmedMember(server);
    const { auth } = server.client();
    await auth.setSession(member.session);
    const { data, error } = await auth.updateUser({ email: member.email });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({ email: member.email });
    expect(data.user?.new_email).toBeUndefined();
  });

  it("refuses withdrawal signed out", async () => {
    const response = await server.app.inject({
      method: "PUT",
      url: "/auth/v1/user",
      payload: { email: "someone@example.org" },
    });
    expect(response.statusCode).toBe(401);
  });

  describe("invitations", () => {
    it("lets an owner move to an uninvited address of her own, with no invitation and no invitation mail", async () => {
      const owner = await confirmedMember(server);
      await server.invitations.setRole(owner.email, "owner", "test");
      const newEmail = uniqueEmail("owner-moved");
      const { auth } = server.client();
      await auth.setSession(owner.session);
      const before = server.smtp.messages.length;

      const { data, error } = await auth.updateUser({ email: newEmail });
      expect(error).toBeNull();
      expect(data.user).toMatchObject({ email: owner.email, new_email: newEmail });
      const mail = await server.smtp.waitForMail(newEmail, { subject: emailChange });
      // Only the confirmation went to the new address: no invitation, to it or to her.
      const sent = server.smtp.messages.slice(before);
      expect(sent.filter((message) => message.to.includes(newEmail))).toHaveLength(1);
      expect(sent.filter((message) => /invit/i.test(message.subject))).toEqual([]);
      expect(await isInvited(newEmail)).toBe(false);

      const session = sessionFrom(await openLink(linkIn(mail)));
      expect((await getUser(server, session.access_token)).json()).toMatchObject({ email: newEmail });
      // Her invitation, owner's role included, moved to the new address; the old one is off the list.
      expect(await server.invitations.isOwner(newEmail)).toBe(true);
      expect(await isInvited(owner.email)).toBe(false);
      await signedInClient(server, newEmail);
    });

    it("refuses a member's change to an uninvited address, by request and by a link mailed while invited", async () => {
      const member = await confirmedMember(server);
      const newEmail = uniqueEmail("member-moved");
      const { auth } = server.client();
      await auth.setSession(member.session);
      expect((await auth.updateUser({ email: newEmail })).error).toMatchObject({ status: 403, code: "email_not_invited" });

      // Invited, asked for, then the invitation revoked: the mailed code no longer moves the account.
      await server.invite(newEmail);
      expect((await auth.updateUser({ email: newEmail })).error).toBeNull();
      const mail = await server.smtp.waitForMail(newEmail, { subject: emailChange });
      await server.invitations.revoke(newEmail, "test");
      const byCode = await server.client().auth.verifyOtp({ email: newEmail, token: codeIn(mail), type: "email_change" });
      expect(byCode.error).toMatchObject({ code: "email_not_invited" });
      expect((await getUser(server, member.session.access_token)).json()).toMatchObject({ email: member.email });
    });

    it("does not let a member use the owner's exemption or the owner's address", async () => {
      const owner = await confirmedMember(server);
      await server.invitations.setRole(owner.email, "owner", "test");
      const member = await confirmedMember(server);
      const { auth } = server.client();
      await auth.setSession(member.session);
      const newEmail = uniqueEmail("borrowed");
      const attempt = await auth.updateUser({ email: newEmail });
      expect(attempt.error).toMatchObject({ status: 403, code: "email_not_invited" });
      // The owner's own address is taken, not a way around the rule.
      expect((await auth.updateUser({ email: owner.email })).error).toMatchObject({ code: "email_exists" });
    });
  });
});
