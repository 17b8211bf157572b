import { randomUUID } from "node:crypto";
import net from "node:net";
import { GoTrueClient, type Session, type SupportedStorage } from "@supabase/auth-js";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import type { Kysely } from "kysely";
import { Secret, TOTP } from "otpauth";
import { expect } from "vitest";
import type { BuildOptions } from "../src/app";
import { type DatabaseHandle, type Engine, openDatabase } from "../src/db/database";
import type { Database } from "../src/db/schema";
import { AuditLogRepository } from "../src/modules/audit/audit-log.repository";
import { InvitationsRepository } from "../src/modules/invitations/invitations.repository";
import { InvitationsService } from "../src/modules/invitations/invitations.service";
import { type CapturedMail, extractLink, startTestSmtpServer, type TestSmtpServer } from "./smtp-test-server";
import { createTestApp, type TestApp } from "./test-app";

// Shared by the auth service's tests: the real server listening on loopback, a local SMTP
// server catching its mails, a clock the test can move, and the real auth-js client.

/** The auth service's clock: real time plus an offset the test moves forward. */
export class TestClock {
  private offsetMs = 0;

  readonly now = (): Date => new Date(Date.now() + this.offsetMs);

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
}

export interface AuthTestServer {
  testApp: TestApp;
  app: FastifyInstance;
  /** http://127.0.0.1:PORT, which is also PUBLIC_URL (and so the site URL unless AUTH_SITE_URL is set). */
  origin: string;
  /** `${origin}/auth/v1`, the URL auth-js is given. */
  authUrl: string;
  smtp: TestSmtpServer;
  clock: TestClock;
  /** A second connection to the app's database, for arranging and inspecting rows. */
  db: Kysely<Database>;
  invitations: InvitationsService;
  invite(...emails: string[]): Promise<void>;
  /** A fresh auth-js client; PKCE clients keep their code verifier in `storage`. */
  client(flowType?: "implicit" | "pkce", options?: { fetch?: typeof fetch }): TestClient;
  close(): Promise<void>;
}

/** A browser: an auth-js client whose requests keep cookies, as a browser does for its own origin. */
export interface TestClient {
  auth: GoTrueClient;
  storage: MemoryStorage;
  /** Opens an e-mailed link in this browser (with its cookies), without following the redirect. */
  openLink(link: string): Promise<OpenedLink>;
}

/** A browser's cookies for one origin: what Set-Cookie left, sent back on every request. */
export class CookieJar {
  readonly cookies = new Map<string, string>();

  readonly fetch: typeof fetch = async (input, init) => {
    const headers = new Headers(init?.headers);
    if (this.cookies.size > 0) headers.set("cookie", [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(input, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = line.split(";");
      const [name = "", value = ""] = pair.split("=");
      const expired = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value.trim());
    }
    return response;
  };
}

/** What auth-js needs of a storage: getItem/setItem/removeItem over an in-memory map. */
export class MemoryStorage implements SupportedStorage {
  readonly items = new Map<string, string>();

  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }

  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }

  removeItem(key: string): void {
    this.items.delete(key);
  }
}

/**
 * The whole server on a fresh database of `engine`, listening on a free loopback port that is
 * also its PUBLIC_URL, so e-mailed links work as sent. Rate limits are off unless `env` turns
 * them on; mail goes to `smtp` (a new local server when not given).
 */
export async function startAuthServer(
  engine: Engine,
  options: {
    env?: Record<string, string>;
    smtp?: TestSmtpServer;
    languages?: readonly string[];
    productPasswordHashing?: boolean;
    mailOutbox?: BuildOptions["mailOutbox"];
  } = {},
): Promise<AuthTestServer> {
  const smtp = options.smtp ?? (await startTestSmtpServer());
  const clock = new TestClock();
  // PUBLIC_URL must be known before the app is built; another process could take the port in
  // between, so a clash is retried on a new port.
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const testApp = await createTestApp(engine, {
      env: { SMTP_URL: smtp.url, PUBLIC_URL: origin, AUTH_RATE_LIMITS: "false", ...options.env },
      now: clock.now,
      ...(options.languages ? { languages: options.languages } : {}),
      ...(options.productPasswordHashing ? { productPasswordHashing: true } : {}),
      ...(options.mailOutbox ? { mailOutbox: options.mailOutbox } : {}),
    });
    try {
      await testApp.app.listen({ port, host: "127.0.0.1" });
    } catch (error) {
      await testApp.close();
      if (attempt < 5 && (error as NodeJS.ErrnoException).code === "EADDRINUSE") continue;
      throw error;
    }
    const database: DatabaseHandle = openDatabase(testApp.config.database);
    const invitations = new InvitationsService({
      invitations: new InvitationsRepository(database.db),
      audit: new AuditLogRepository(database.db),
    });
    return {
      testApp,
      app: testApp.app,
      origin,
      authUrl: `${origin}/auth/v1`,
      smtp,
      clock,
      db: database.db,
      invitations,
      invite: async (...emails) => {
        await invitations.invite(emails, "test");
      },
      client: (flowType = "implicit", clientOptions = {}) => {
        const storage = new MemoryStorage();
        const jar = new CookieJar();
        // Each client has its own storage key, so none shares another's stored session or cached JWKS.
        const auth = new GoTrueClient({
          url: `${origin}/auth/v1`,
          autoRefreshToken: false,
          flowType,
          persistSession: true,
          storage,
          storageKey: `test-${randomUUID()}`,
          fetch: jar.fetch,
          experimental: { passkey: true },
          ...clientOptions,
        });
        return { auth, storage, openLink: (link) => openLink(link, jar.fetch) };
      },
      close: async () => {
        await database.destroy();
        await testApp.close();
        if (!options.smtp) await smtp.close();
      },
    };
  }
}

/** A port on loopback nobody listens on just now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** `expect.any(String)` / `expect.stringMatching()`, typed, so object literals with them stay type-safe. */
export const anyString = expect.any(String) as unknown as string;
export const stringMatching = (pattern: RegExp) => expect.stringMatching(pattern) as unknown as string;

/** A new address on each call, so tests sharing a server never meet. */
export function uniqueEmail(label = "member"): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.org`;
}

/** Long enough for the default policy (8 characters). */
export const password = "correct horse battery staple";

/** The action link of an e-mail, as written in its plain-text part. */
export function linkIn(mail: CapturedMail): string {
  return extractLink(mail.text);
}

/** The six-digit code of an e-mail. */
export function codeIn(mail: CapturedMail): string {
  const match = /code(?: instead)?:\s*(\d{6})\b/.exec(mail.text);
  if (!match?.[1]) throw new Error(`No code in: ${mail.text}`);
  return match[1];
}

export interface OpenedLink {
  status: number;
  /** Where the redirect goes, without fragment and query. */
  target: string;
  query: URLSearchParams;
  fragment: URLSearchParams;
}

/**
 * Opens an e-mailed link as a browser would, without following the redirect: by default a browser
 * other than the one that asked for the link (no cookies); `TestClient.openLink` for that one.
 */
export async function openLink(link: string, fetcher: typeof fetch = fetch): Promise<OpenedLink> {
  const response = await fetcher(link, { redirect: "manual" });
  await response.arrayBuffer();
  const location = response.headers.get("location");
  if (!location) return { status: response.status, target: "", query: new URLSearchParams(), fragment: new URLSearchParams() };
  const url = new URL(location);
  return {
    status: response.status,
    target: `${url.origin}${url.pathname}`,
    query: url.searchParams,
    fragment: new URLSearchParams(url.hash.slice(1)),
  };
}

/** The session an implicit-flow link carried in its fragment. */
export function sessionFrom(opened: OpenedLink): {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  type: string;
} {
  expect(opened.status).toBe(303);
  const accessToken = opened.fragment.get("access_token");
  const refreshToken = opened.fragment.get("refresh_token");
  if (!accessToken || !refreshToken) throw new Error(`No session in the redirect: ${opened.fragment.toString()}`);
  return {
    access_token: accessToken,
    refresh_token: refreshToken,
    expires_in: Number(opened.fragment.get("expires_in")),
    type: opened.fragment.get("type") ?? "",
  };
}

/**
 * A confirmed member: invited, signed up through auth-js, confirmed by opening the mailed link in
 * the same browser. Returns the link's session (one argon2 hash in all).
 */
export async function confirmedMember(
  server: AuthTestServer,
  email = uniqueEmail(),
  options: { data?: Record<string, unknown> } = {},
): Promise<{ email: string; userId: string; session: { access_token: string; refresh_token: string } }> {
  await server.invite(email);
  const browser = server.client();
  const { data, error } = await browser.auth.signUp({ email, password, options: { data: options.data ?? {} } });
  expect(error).toBeNull();
  const session = sessionFrom(await browser.openLink(linkIn(await server.smtp.waitForMail(email, { subject: /Confirm your/ }))));
  return { email, userId: data.user!.id, session };
}

/** Signs in with the password through a new client; returns the client holding the session. */
export async function signedInClient(
  server: AuthTestServer,
  email: string,
  secret = password,
): Promise<{ auth: GoTrueClient; session: Session }> {
  const { auth } = server.client();
  const { data, error } = await auth.signInWithPassword({ email, password: secret });
  expect(error).toBeNull();
  return { auth, session: data.session! };
}

/** The headers auth-js sends with a session's access token. */
export function authHeaders(accessToken: string): { authorization: string; "x-supabase-api-version": string } {
  return { authorization: `Bearer ${accessToken}`, "x-supabase-api-version": "2024-01-01" };
}

/** GET /user with a bearer token: the status and error code (or the user). */
export async function getUser(server: AuthTestServer, accessToken: string): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method: "GET",
    url: "/auth/v1/user",
    headers: { authorization: `Bearer ${accessToken}`, "x-supabase-api-version": "2024-01-01" },
  });
}

/** POST /token?grant_type=refresh_token as auth-js sends it. */
export async function refreshWith(server: AuthTestServer, refreshToken: string): Promise<LightMyRequestResponse> {
  return server.app.inject({
    method: "POST",
    url: "/auth/v1/token?grant_type=refresh_token",
    headers: { "x-supabase-api-version": "2024-01-01" },
    payload: { refresh_token: refreshToken },
  });
}

/** The code an authenticator app holding `secret` shows at `now`. */
export function totpCode(secret: string, now: Date = new Date()): string {
  return new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: now.getTime() });
}

/**
 * Adds an authenticator app to the account of `accessToken` and verifies it with its first code
 * (`now`: the server's clock, `server.clock.now` in a test that moves it). Answers the factor, its
 * secret and the session the code raised to aal2. A later right code must wait for the next
 * 30 s step (a code is accepted once).
 */
export async function enrolTotp(
  app: FastifyInstance,
  accessToken: string,
  options: { now?: () => Date; friendlyName?: string } = {},
): Promise<{ factorId: string; secret: string; session: { access_token: string; refresh_token: string } }> {
  const headers = { authorization: `Bearer ${accessToken}`, "x-supabase-api-version": "2024-01-01" };
  const enrolled = await app.inject({
    method: "POST",
    url: "/auth/v1/factors",
    headers,
    payload: { factor_type: "totp", friendly_name: options.friendlyName ?? `Phone ${randomUUID().slice(0, 8)}` },
  });
  expect(enrolled.statusCode, enrolled.body).toBe(200);
  const { id, totp } = enrolled.json<{ id: string; totp: { secret: string } }>();
  const challenge = await app.inject({ method: "POST", url: `/auth/v1/factors/${id}/challenge`, headers });
  expect(challenge.statusCode, challenge.body).toBe(200);
  const verified = await app.inject({
    method: "POST",
    url: `/auth/v1/factors/${id}/verify`,
    headers,
    payload: { challenge_id: challenge.json<{ id: string }>().id, code: totpCode(totp.secret, options.now?.()) },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  return { factorId: id, secret: totp.secret, session: verified.json<{ access_token: string; refresh_token: string }>() };
}
