import { GoTrueAdminApi } from "@supabase/auth-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  confirmedMember,
  linkIn,
  password,
  sessionFrom,
  signedInClient,
  startAuthServer,
  uniqueEmail,
} from "../../../../test/auth-fixtures";
import { testEngines } from "../../../../test/test-database";
import { loadConfig } from "../../../config";
import { serviceTokenCommand } from "../../../cli/service-token.command";

// Common and easily guessed passwords are refused wherever a password is set (ADR 0015): sign-up,
// a change through PUT /user (after recovery too) and the admin API. The answer is GoTrue's
// `422 weak_password` with the reason `pwned`; a password that is too short gets `length` alone.

const guessable = ["password", "12345678", "qwertyuiop", "iloveyou123", "password123"];
const guessed = { name: "AuthWeakPasswordError", status: 422, code: "weak_password", reasons: ["pwned"] };

describe.each(testEngines())("the password strength rule on %s", (engine) => {
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

  it.each(guessable)("refuses %j at sign-up with the reason pwned, and creates nothing", async (weak) => {
    const email = uniqueEmail();
    await server.invite(email);
    const { data, error } = await server.client().auth.signUp({ email, password: weak });
    expect(error).toMatchObject(guessed);
    expect(error?.message).toBe("Password is known to be weak and easy to guess, please choose a different one.");
    expect(data.user).toBeNull();
    expect(await server.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()).toBeUndefined();
  });

  it("answers the wire format GoTrue sends, in both envelopes", async () => {
    const payload = { email: uniqueEmail(), password: "12345678" };
    const current = await server.app.inject({
      method: "POST",
      url: "/auth/v1/signup",
      headers: { "x-supabase-api-version": "2024-01-01" },
      payload,
    });
    expect(current.statusCode).toBe(422);
    expect(current.json()).toEqual({
      code: "weak_password",
      message: "Password is known to be weak and easy to guess, please choose a different one.",
      weak_password: { reasons: ["pwned"] },
    });
    const legacy = await server.app.inject({ method: "POST", url: "/auth/v1/signup", payload });
    expect(legacy.json()).toMatchObject({ code: 422, error_code: "weak_password", weak_password: { reasons: ["pwned"] } });
  });

  it("gives a short password the reason length alone, as GoTrue does", async () => {
    const { error } = await server.client().auth.signUp({ email: uniqueEmail(), password: "1234" });
    expect(error).toMatchObject({ code: "weak_password", reasons: ["length"] });
  });

  it("counts the member's own address and the site's name as guessable", async () => {
    const email = uniqueEmail("rosalind");
    await server.invite(email);
    for (const weak of [email, `${email.split("@")[0]}1`, "memorybox1"]) {
      expect((await server.client().auth.signUp({ email, password: weak })).error).toMatchObject(guessed);
    }
  });

  it("takes a long passphrase and a random string", async () => {
    for (const strong of [password, "kj3h4k5jh34k5jh", "sunflower-meadow-42"]) {
      const email = uniqueEmail();
      await server.invite(email);
      expect((await server.client().auth.signUp({ email, password: strong })).error).toBeNull();
    }
  });

  it("refuses a guessable new password through PUT /user, keeping the old one", async () => {
    const { email } = await confirmedMember(server);
    const { auth } = await signedInClient(server, email);
    expect((await auth.updateUser({ password: "password123" })).error).toMatchObject(guessed);
    await signedInClient(server, email, password);
  });

  it("refuses a guessable password chosen after a recovery link, then takes a strong one", async () => {
    const { email } = await confirmedMember(server);
    const browser = server.client();
    expect((await browser.auth.resetPasswordForEmail(email)).error).toBeNull();
    const recovered = sessionFrom(
      await browser.openLink(linkIn(await server.smtp.waitForMail(email, { subject: /Reset your/ }))),
    );
    await browser.auth.setSession(recovered);
    expect((await browser.auth.updateUser({ password: "iloveyou123" })).error).toMatchObject(guessed);
    expect((await browser.auth.updateUser({ password: "a meadow of sunflowers at noon" })).error).toBeNull();
    await signedInClient(server, email, "a meadow of sunflowers at noon");
  });

  it("holds operators to the same rule on create and on update", async () => {
    const email = uniqueEmail();
    expect((await admin.createUser({ email, password: "12345678", email_confirm: true })).error).toMatchObject({
      status: 422,
      code: "weak_password",
    });
    const { data, error } = await admin.createUser({ email, password, email_confirm: true });
    expect(error).toBeNull();
    expect((await admin.updateUserById(data.user!.id, { password: "qwertyuiop" })).error).toMatchObject({
      status: 422,
      code: "weak_password",
    });
    expect((await admin.generateLink({ type: "signup", email: uniqueEmail(), password: "password" })).error).toMatchObject({
      status: 422,
      code: "weak_password",
    });
  });
});

describe.each(testEngines())("the password strength rule turned off on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine, { env: { AUTH_PASSWORD_MIN_STRENGTH: "0" } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("takes a common password that is long enough, and still refuses a short one", async () => {
    const email = uniqueEmail();
    await server.invite(email);
    expect((await server.client().auth.signUp({ email, password: "12345678" })).error).toBeNull();
    expect((await server.client().auth.signUp({ email: uniqueEmail(), password: "1234" })).error).toMatchObject({
      reasons: ["length"],
    });
  });
});

describe("AUTH_PASSWORD_MIN_STRENGTH", () => {
  const defaults = { webDir: "/srv/web", version: "1.2.3" };

  it("defaults to 3 and takes 0 to 4", () => {
    expect(loadConfig({}, defaults).auth.passwordMinStrength).toBe(3);
    expect(loadConfig({ AUTH_PASSWORD_MIN_STRENGTH: "0" }, defaults).auth.passwordMinStrength).toBe(0);
    expect(loadConfig({ AUTH_PASSWORD_MIN_STRENGTH: "4" }, defaults).auth.passwordMinStrength).toBe(4);
    expect(() => loadConfig({ AUTH_PASSWORD_MIN_STRENGTH: "5" }, defaults)).toThrow(/AUTH_PASSWORD_MIN_STRENGTH/);
    expect(() => loadConfig({ AUTH_PASSWORD_MIN_STRENGTH: "-1" }, defaults)).toThrow(/AUTH_PASSWORD_MIN_STRENGTH/);
  });
});
