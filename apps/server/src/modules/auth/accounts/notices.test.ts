import { GoTrueAdminApi } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  confirmedMember,
  linkIn,
  openLink,
  sessionFrom,
  signedInClient,
  startAuthServer,
  uniqueEmail,
} from "../../../../test/auth-fixtures";
import type { CapturedMail } from "../../../../test/smtp-test-server";
import { testEngines } from "../../../../test/test-database";
import { serviceTokenCommand } from "../../../cli/service-token.command";

// Every change of an account's password or address is announced to the address the account had
// before (ADR 0015): a notice that says what changed and when, with nothing in it that grants access.

const passwordNotice = /password was changed/;
const addressNotice = /email address was changed/;

/** A notice carries no link and no code. */
function expectNoticeOnly(mail: CapturedMail) {
  expect(mail.text).not.toMatch(/https?:\/\//);
  expect(mail.html).not.toMatch(/<a\s|https?:\/\//);
  expect(mail.text).not.toMatch(/\b\d{6}\b/);
}

describe.each(testEngines())("change notices on %s", (engine) => {
  let server: AuthTestServer;
  let admin: GoTrueAdminApi;

  beforeAll(async () => {
    server = await startAuthServer(engine, { env: { AUTH_EMAIL_MIN_INTERVAL: "0" } });
    const lines: string[] = [];
    await serviceTokenCommand.run({ args: [], db: server.db, out: (line) => lines.push(line), config: server.testApp.config });
    admin = new GoTrueAdminApi({ url: server.authUrl, headers: { Authorization: `Bearer ${lines[0]!}` } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("announces a password change through PUT /user to the member's address", async () => {
    const { email } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    expect((await auth.updateUser({ password: "a quiet lake at dawn" })).error).toBeNull();
    const notice = await server.smtp.waitForMail(email, { subject: passwordNotice });
    expect(notice.subject).toBe("Your Memory Box password was changed");
    expect(notice.text).toContain(`The password of the Memory Box account for ${email} was changed on `);
    expect(notice.text).toMatch(/ at \d\d:\d\d UTC\./);
    expectNoticeOnly(notice);
  });

  it("announces a password set after a recovery link", async () => {
    const { email } = await confirmedMember(server);
    const browser = server.client();
    await browser.auth.resetPasswordForEmail(email);
    await browser.auth.setSession(
      sessionFrom(await openLink(linkIn(await server.smtp.waitForMail(email, { subject: /Reset/ })))),
    );
    expect((await browser.auth.updateUser({ password: "recovered after the storm" })).error).toBeNull();
    expectNoticeOnly(await server.smtp.waitForMail(email, { subject: passwordNotice }));
  });

  it("sends nothing for a refused password change", async () => {
    const { email } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    const before = server.smtp.messages.length;
    expect((await auth.updateUser({ password: "password123" })).error).toMatchObject({ code: "weak_password" });
    // A notice would have been sent by now: the next mail to this address is the recovery mail.
    await auth.resetPasswordForEmail(email);
    await server.smtp.waitForMail(email, { subject: /Reset/ });
    expect(server.smtp.messages.slice(before).map((mail) => mail.subject)).toEqual(["Reset your Memory Box password"]);
  });

  it("announces an address change to the old address once the new one confirms it, naming the new one", async () => {
    const member = await confirmedMember(server);
    const newEmail = uniqueEmail("moved");
    await server.invite(newEmail);
    const { auth } = server.client();
    await auth.setSession(member.session);
    expect((await auth.updateUser({ email: newEmail })).error).toBeNull();
    sessionFrom(await openLink(linkIn(await server.smtp.waitForMail(newEmail, { subject: /Confirm your new email/ }))));

    const notice = await server.smtp.waitForMail(member.email, { subject: addressNotice });
    expect(notice.to).toEqual([member.email]);
    expect(notice.subject).toBe("Your Memory Box email address was changed");
    expect(notice.text).toContain(`The Memory Box account that used ${member.email} was moved to ${newEmail} on `);
    expectNoticeOnly(notice);
    expect(server.smtp.messages.filter((mail) => mail.to.includes(newEmail)).map((mail) => mail.subject)).toEqual([
      "Confirm your new email address",
    ]);
  });

  it("announces an operator's password and address changes to the old address", async () => {
    const { email, userId } = await confirmedMember(server);
    expect((await admin.updateUserById(userId, { password: "an operator's long passphrase" })).error).toBeNull();
    expectNoticeOnly(await server.smtp.waitForMail(email, { subject: passwordNotice }));
    const newEmail = uniqueEmail("moved-by-operator");
    expect((await admin.updateUserById(userId, { email: newEmail })).error).toBeNull();
    const notice = await server.smtp.waitForMail(email, { subject: addressNotice });
    expect(notice.text).toContain(newEmail);
    expectNoticeOnly(notice);
  });

  it("keeps the change when the notice cannot be delivered", async () => {
    const { email } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    server.smtp.rejectNext(1);
    expect((await auth.updateUser({ password: "changed while the mail server sulks" })).error).toBeNull();
    await signedInClient(server, email, "changed while the mail server sulks");
  });
});
