import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthTestServer, confirmedMember, password, startAuthServer, uniqueEmail } from "../../../../test/auth-fixtures";
import { testEngines } from "../../../../test/test-database";

// Wrong passwords slow one address down (ADR 0015): ten are free; then each attempt waits 1 s,
// 2 s, 4 s… up to 15 minutes, answered 429 over_request_rate_limit with Retry-After. The count is
// kept in the database per address, with or without an account, and a right password clears it.

describe.each(testEngines())("the slow-down after wrong passwords on %s", (engine) => {
  let server: AuthTestServer;

  beforeAll(async () => {
    server = await startAuthServer(engine);
  });
  afterAll(async () => {
    await server?.close();
  });

  const signIn = (email: string, secret: string): Promise<LightMyRequestResponse> =>
    server.app.inject({
      method: "POST",
      url: "/auth/v1/token?grant_type=password",
      headers: { "x-supabase-api-version": "2024-01-01" },
      payload: { email, password: secret },
    });
  const wrong = async (email: string, times: number) => {
    for (let attempt = 1; attempt <= times; attempt += 1) {
      expect((await signIn(email, `wrong password ${attempt}`)).statusCode).toBe(400);
    }
  };
  /** What a client can observe of a refusal: status, body and Retry-After. */
  const refusal = (response: LightMyRequestResponse) => ({
    status: response.statusCode,
    body: response.json<Record<string, unknown>>(),
    retryAfter: response.headers["retry-after"],
  });

  it("takes ten wrong passwords, then refuses even the right one for a second, then signs in and starts afresh", async () => {
    const { email } = await confirmedMember(server);
    await wrong(email, 10);
    const refused = await signIn(email, password);
    expect(refusal(refused)).toEqual({
      status: 429,
      body: {
        code: "over_request_rate_limit",
        message: "Too many wrong passwords were tried for this address. Try again in 1 second.",
      },
      retryAfter: "1",
    });
    server.clock.advance(1);
    expect((await signIn(email, password)).statusCode).toBe(200);
    // The count starts again: ten more wrong ones before any wait.
    await wrong(email, 10);
    expect((await signIn(email, password)).statusCode).toBe(429);
  });

  it("doubles the wait with each further wrong password, up to 15 minutes, and never locks the member out", async () => {
    const { email } = await confirmedMember(server);
    await wrong(email, 10);
    const waits: number[] = [];
    for (let extra = 1; extra <= 12; extra += 1) {
      const retryAfter = Number((await signIn(email, "still wrong")).headers["retry-after"]);
      waits.push(retryAfter);
      server.clock.advance(retryAfter);
      expect((await signIn(email, `wrong again ${extra}`)).statusCode).toBe(400);
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
    const refused = await signIn(email, password);
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ message: string }>().message).toBe(
      "Too many wrong passwords were tried for this address. Try again in 15 minutes.",
    );
    server.clock.advance(900);
    expect((await signIn(email, password)).statusCode).toBe(200);
  });

  it("answers an unknown address exactly as a member's, so the slow-down reveals no account", async () => {
    const member = (await confirmedMember(server)).email;
    const unknown = uniqueEmail("unknown");
    const answers = [];
    for (const email of [member, unknown]) {
      const run = [];
      for (let attempt = 1; attempt <= 11; attempt += 1) run.push(refusal(await signIn(email, "not the password")));
      answers.push(run);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[0]!.map((answer) => answer.status)).toEqual([...Array<number>(10).fill(400), 429]);
  });

  it("refuses the attempts that arrive together once the tenth is counted, whichever password they carry", async () => {
    const { email } = await confirmedMember(server);
    await wrong(email, 9);
    const burst = await Promise.all([
      signIn(email, "wrong at once 1"),
      signIn(email, "wrong at once 2"),
      signIn(email, password),
      signIn(email, "wrong at once 3"),
    ]);
    // One attempt is checked (the tenth); the others wait, the right password among them unless it
    // was the one checked.
    expect(burst.filter((response) => response.statusCode === 429).length).toBeGreaterThanOrEqual(3);
  });

  it("forgets a run of wrong passwords a day after its last attempt", async () => {
    const { email } = await confirmedMember(server);
    await wrong(email, 9);
    server.clock.advance(24 * 3600 + 1);
    await wrong(email, 9);
    expect((await signIn(email, password)).statusCode).toBe(200);
  });

  it("keeps the count in the database, by a hash of the address", async () => {
    const email = uniqueEmail("counted");
    await wrong(email, 3);
    const rows = await server.db.selectFrom("password_failures").selectAll().execute();
    expect(rows.some((row) => row.address_hash.includes(email) || row.address_hash.includes("counted"))).toBe(false);
    expect(rows.map((row) => row.failures)).toContain(3);
  });
});
