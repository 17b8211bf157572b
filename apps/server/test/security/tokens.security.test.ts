import { createHash } from "node:crypto";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AuthTestServer,
  authHeaders,
  confirmedMember,
  getUser,
  refreshWith,
  signedInClient,
  startAuthServer,
} from "../auth-fixtures";
import { testEngines } from "../test-database";

// Security suite, tokens family: no token the server did not make, or made for something else,
// opens the auth API or the product API; a refresh token never forks a session, and one that
// comes back too late ends it (issue #11 item 5). Each forgery is tried against both APIs with
// the payload of a real session, so only the signature or the token's kind is wrong. (The
// signing keys' own checks, token by token: core/signing-keys.test.ts.)

const reuseIntervalSeconds = 10;

function decodeClaims(jwt: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(jwt.split(".")[1]!, "base64url").toString("utf8")) as Record<string, unknown>;
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe.each(testEngines())("tokens the server did not make, on %s", (engine) => {
  let server: AuthTestServer;
  let member: Awaited<ReturnType<typeof confirmedMember>>;
  let other: Awaited<ReturnType<typeof confirmedMember>>;

  beforeAll(async () => {
    server = await startAuthServer(engine, { env: { AUTH_REFRESH_TOKEN_REUSE_INTERVAL: String(reuseIntervalSeconds) } });
    member = await confirmedMember(server);
    other = await confirmedMember(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Both APIs with `token` as the bearer: what each answers (the auth API refuses as Supabase Auth does). */
  async function statuses(token: string) {
    const auth = await getUser(server, token);
    const product = await server.app.inject({ method: "GET", url: "/api/v1/memories", headers: authHeaders(token) });
    return {
      auth: auth.statusCode === 200 ? 200 : `${auth.statusCode} ${auth.json<{ code?: string }>().code}`,
      product: product.statusCode,
    };
  }

  it("accepts the real session's token (the control for the forgeries)", async () => {
    expect(await statuses(member.session.access_token)).toEqual({ auth: 200, product: 200 });
  });

  it("#11 forged tokens: alg none, HS256 keyed with the published key, a foreign key under our kid, an altered payload", async () => {
    const real = member.session.access_token;
    const [headerPart, , signaturePart] = real.split(".");
    const header = JSON.parse(Buffer.from(headerPart!, "base64url").toString()) as { kid: string };
    const claims = decodeClaims(real);
    const jwks = (await (await fetch(`${server.authUrl}/.well-known/jwks.json`)).json()) as { keys: Record<string, unknown>[] };
    const published = jwks.keys.find((key) => key.kid === header.kid)!;
    const foreign = await generateKeyPair("ES256");

    const forgeries: Record<string, string> = {
      "alg none": `${base64url({ alg: "none", typ: "JWT", kid: header.kid })}.${base64url(claims)}.`,
      "HS256 keyed with the published key": await new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256", typ: "JWT", kid: header.kid })
        .sign(new TextEncoder().encode(JSON.stringify(published))),
      "a foreign key under our kid": await new SignJWT(claims)
        .setProtectedHeader({ alg: "ES256", typ: "JWT", kid: header.kid })
        .sign(foreign.privateKey),
      "a foreign key it names itself (jwk header)": await new SignJWT(claims)
        .setProtectedHeader({ alg: "ES256", typ: "JWT", jwk: await exportJWK(foreign.publicKey) })
        .sign(foreign.privateKey),
      "another member's id under the real signature": `${headerPart}.${base64url({ ...claims, sub: other.userId })}.${signaturePart}`,
      "the refresh token as a bearer": member.session.refresh_token,
      "a hash of the real token": createHash("sha256").update(real).digest("base64url"),
    };
    for (const [name, token] of Object.entries(forgeries)) {
      expect({ name, ...(await statuses(token)) }).toEqual({ name, auth: "403 bad_jwt", product: 401 });
    }
  });

  it("#11.5 a refresh token replayed within the reuse interval never forks the session: the newest child, one usable token", async () => {
    const { session } = await signedInClient(server, member.email);
    const child = (await refreshWith(server, session.refresh_token)).json<{ refresh_token: string }>().refresh_token;
    const grandchild = (await refreshWith(server, child)).json<{ refresh_token: string }>().refresh_token;
    server.clock.advance(2);
    const again = await refreshWith(server, session.refresh_token);
    expect(again.statusCode).toBe(200);
    expect(again.json<{ refresh_token: string }>().refresh_token).toBe(grandchild);
    const usable = await server.db
      .selectFrom("refresh_tokens")
      .select("id")
      .where("session_id", "=", decodeClaims(session.access_token).session_id as string)
      .where("revoked_at", "is", null)
      .execute();
    expect(usable).toHaveLength(1);
  });

  it("#11.5 a replaced refresh token that comes back after the interval ends the whole session", async () => {
    const { session } = await signedInClient(server, member.email);
    const newest = (await refreshWith(server, session.refresh_token)).json<{ access_token: string; refresh_token: string }>();
    server.clock.advance(reuseIntervalSeconds + 1);
    const stolen = await refreshWith(server, session.refresh_token);
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toMatchObject({ code: "refresh_token_already_used" });
    expect((await refreshWith(server, newest.refresh_token)).statusCode).toBe(400);
    expect((await getUser(server, newest.access_token)).json()).toMatchObject({ code: "session_not_found" });
  });
});
