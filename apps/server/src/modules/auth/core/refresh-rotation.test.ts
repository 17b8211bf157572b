import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  confirmedMember,
  getUser,
  password,
  refreshWith,
  signedInClient,
  startAuthServer,
} from "../../../../test/auth-fixtures";
import { testEngines } from "../../../../test/test-database";

// Refresh-token rotation (protocol §5): every refresh hands out a new token; the one it replaced
// may be presented again within the reuse interval (two tabs refreshing at once) and yields the
// same successor, so a session stays one chain; after that it counts as stolen and ends the whole
// session. The replays of issue #11's fork and of a stolen token are in test/security/tokens.security.test.ts.

const reuseIntervalSeconds = 10;

describe.each(testEngines())("refresh-token rotation on %s", (engine) => {
  let server: AuthTestServer;
  let email: string;

  beforeAll(async () => {
    server = await startAuthServer(engine, { env: { AUTH_REFRESH_TOKEN_REUSE_INTERVAL: String(reuseIntervalSeconds) } });
    ({ email } = await confirmedMember(server));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("hands out a new refresh token on every refreshSession(), each with a working access token", async () => {
    const { auth, session } = await signedInClient(server, email);
    const seen = new Set([session.refresh_token]);
    for (let i = 0; i < 3; i += 1) {
      const { data, error } = await auth.refreshSession();
      expect(error).toBeNull();
      expect(seen.has(data.session!.refresh_token)).toBe(false);
      seen.add(data.session!.refresh_token);
      expect((await getUser(server, data.session!.access_token)).statusCode).toBe(200);
      // The session stays the same one: the JWT names it.
      expect(decodeClaims(data.session!.access_token).session_id).toBe(decodeClaims(session.access_token).session_id);
    }
  });

  it("answers the replaced token again within the reuse interval with the successor it already handed out", async () => {
    const { auth, session } = await signedInClient(server, email);
    const first = await auth.refreshSession();
    expect(first.error).toBeNull();
    server.clock.advance(reuseIntervalSeconds - 2);

    const other = server.client();
    const again = await other.auth.refreshSession({ refresh_token: session.refresh_token });
    expect(again.error).toBeNull();
    // No second chain: the same successor, with an access token of its own.
    expect(again.data.session!.refresh_token).toBe(first.data.session!.refresh_token);
    expect((await getUser(server, again.data.session!.access_token)).statusCode).toBe(200);
    // Both tabs carry on, on one chain.
    const tab = await auth.refreshSession();
    expect(tab.error).toBeNull();
    const otherTab = await other.auth.refreshSession();
    expect(otherTab.error).toBeNull();
    expect(otherTab.data.session!.refresh_token).toBe(tab.data.session!.refresh_token);
  });

  it("lets two tabs refresh the same token at the same moment, both getting the one successor", async () => {
    const { session } = await signedInClient(server, email);
    const [a, b] = await Promise.all([refreshWith(server, session.refresh_token), refreshWith(server, session.refresh_token)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.json<{ refresh_token: string }>().refresh_token).toBe(b.json<{ refresh_token: string }>().refresh_token);
  });

  it("answers refresh_token_not_found for a token it never issued", async () => {
    const { error } = await server.client().auth.refreshSession({ refresh_token: "not-a-token-we-issued" });
    expect(error).toMatchObject({ status: 400, code: "refresh_token_not_found" });
  });
});

type Real = {
  server: AuthTestServer;
  email: string;
};

interface Model {
  alive: boolean;
  current: string;
  accessToken: string;
  /** The token `current` replaced, and when (on the server's clock). */
  previous: { token: string; rotatedAt: number } | undefined;
  /** Every refresh token the server handed out in this run. */
  issued: Set<string>;
}

interface TokenPair {
  access_token: string;
  refresh_token: string;
}

class RefreshCurrent implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, { server }: Real): Promise<void> {
    const response = await refreshWith(server, model.current);
    if (!model.alive) {
      expect(response.statusCode).toBe(400);
      return;
    }
    expect(response.statusCode).toBe(200);
    const next = response.json<TokenPair>();
    expect(model.issued.has(next.refresh_token)).toBe(false);
    model.issued.add(next.refresh_token);
    model.previous = { token: model.current, rotatedAt: server.clock.now().getTime() };
    model.current = next.refresh_token;
    model.accessToken = next.access_token;
  }
  toString = () => "refresh(current)";
}

class RefreshPrevious implements fc.AsyncCommand<Model, Real> {
  check = (model: Readonly<Model>) => model.previous !== undefined;
  async run(model: Model, { server }: Real): Promise<void> {
    const previous = model.previous!;
    const response = await refreshWith(server, previous.token);
    if (!model.alive) {
      expect(response.statusCode).toBe(400);
      return;
    }
    const withinInterval = server.clock.now().getTime() - previous.rotatedAt <= reuseIntervalSeconds * 1000;
    if (!withinInterval) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "refresh_token_already_used" });
      model.alive = false;
      return;
    }
    expect(response.statusCode).toBe(200);
    const next = response.json<TokenPair>();
    // The token already handed out after it (or its successor): the chain does not fork.
    expect(next.refresh_token).toBe(model.current);
    model.accessToken = next.access_token;
  }
  toString = () => "refresh(previous)";
}

class AdvanceClock implements fc.AsyncCommand<Model, Real> {
  constructor(readonly seconds: number) {}
  check = () => true;
  async run(_model: Model, { server }: Real): Promise<void> {
    server.clock.advance(this.seconds);
  }
  toString = () => `advance(${this.seconds} s)`;
}

class Logout implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, { server }: Real): Promise<void> {
    const response = await server.app.inject({
      method: "POST",
      url: "/auth/v1/logout?scope=local",
      headers: { authorization: `Bearer ${model.accessToken}`, "content-type": "application/json;charset=UTF-8" },
    });
    expect(response.statusCode).toBe(model.alive ? 204 : 403);
    model.alive = false;
  }
  toString = () => "logout";
}

describe("refresh-token rotation as a state machine (fast-check, sqlite)", () => {
  let server: AuthTestServer;
  let email: string;

  beforeAll(async () => {
    server = await startAuthServer("sqlite", { env: { AUTH_REFRESH_TOKEN_REUSE_INTERVAL: String(reuseIntervalSeconds) } });
    ({ email } = await confirmedMember(server));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("keeps its invariants over random command sequences", async () => {
    const commands = fc.commands(
      [
        fc.constant(new RefreshCurrent()),
        fc.constant(new RefreshPrevious()),
        // Past the reuse interval, or a short step that stays within it.
        fc.constant(new AdvanceClock(reuseIntervalSeconds + 1)),
        fc.constant(new AdvanceClock(3)),
        fc.constant(new Logout()),
      ],
      { maxCommands: 15 },
    );
    await fc.assert(
      fc.asyncProperty(commands, async (sequence) => {
        const signIn = await server.app.inject({
          method: "POST",
          url: "/auth/v1/token?grant_type=password",
          payload: { email, password },
        });
        expect(signIn.statusCode).toBe(200);
        const session = signIn.json<TokenPair>();
        const model: Model = {
          alive: true,
          current: session.refresh_token,
          accessToken: session.access_token,
          previous: undefined,
          issued: new Set([session.refresh_token]),
        };
        const real: Real = { server, email };
        await fc.asyncModelRun(() => ({ model, real }), sequence);

        // Invariants that hold whatever happened: the live session answers, a dead one never does.
        const user = await getUser(server, model.accessToken);
        const refreshed = await refreshWith(server, model.current);
        if (model.alive) {
          expect(user.statusCode).toBe(200);
          expect(refreshed.statusCode).toBe(200);
        } else {
          expect(user.json()).toMatchObject({ code: "session_not_found" });
          expect(refreshed.statusCode).toBe(400);
          for (const token of model.issued) expect((await refreshWith(server, token)).statusCode).toBe(400);
        }
      }),
      { numRuns: 60 },
    );
  }, 60_000);
});

function decodeClaims(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
}
