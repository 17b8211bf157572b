import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthTestServer, codeIn, confirmedMember, startAuthServer } from "../../../../test/auth-fixtures";
import { testEngines } from "../../../../test/test-database";

// Six-digit codes are short enough to guess: each dies at its fifth wrong guess, each account stops
// taking codes for an hour after ten wrong ones, and every code lives an hour by default.

describe.each(testEngines)("e-mailed codes against guessing on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine, { env: { AUTH_EMAIL_MIN_INTERVAL: "0" } });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Asks for a sign-in code for `email` and returns it. */
  async function newCode(email: string): Promise<string> {
    expect((await server.client().auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
    return codeIn(await server.smtp.waitForMail(email, { subject: /sign-in link/ }));
  }

  const typed = (email: string, token: string) => server.client().auth.verifyOtp({ email, token, type: "email" });
  const wrongFor = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

  it("lets a code die at its fifth wrong guess: the right one then fails too, and a new code works", async () => {
    const { email } = await confirmedMember(server);
    const code = await newCode(email);
    for (let guess = 1; guess <= 5; guess += 1) {
      expect((await typed(email, wrongFor(code))).error).toMatchObject({ code: "otp_expired" });
    }
    expect((await typed(email, code)).error).toMatchObject({ code: "otp_expired" });
    const fresh = await newCode(email);
    const signedIn = await typed(email, fresh);
    expect(signedIn.error).toBeNull();
    expect(signedIn.data.session).not.toBeNull();
  });

  it("takes a code with fewer than five wrong guesses before it", async () => {
    const { email } = await confirmedMember(server);
    const code = await newCode(email);
    for (let guess = 1; guess <= 4; guess += 1) await typed(email, wrongFor(code));
    expect((await typed(email, code)).error).toBeNull();
  });

  it("stops taking codes for an account after ten wrong ones, whatever codes they aimed at, for an hour", async () => {
    const { email } = await confirmedMember(server);
    for (let round = 0; round < 2; round += 1) {
      const code = await newCode(email);
      for (let guess = 1; guess <= 5; guess += 1) await typed(email, wrongFor(code));
    }
    const right = await newCode(email);
    expect((await typed(email, right)).error).toMatchObject({ status: 429, code: "over_request_rate_limit" });
    server.clock.advance(3601);
    const later = await newCode(email);
    expect((await typed(email, later)).error).toBeNull();
  });

  it("lets a code live an hour by default", async () => {
    const { email } = await confirmedMember(server);
    const code = await newCode(email);
    server.clock.advance(3601);
    expect((await typed(email, code)).error).toMatchObject({ code: "otp_expired" });
  });
});
