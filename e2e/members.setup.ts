import fs from "node:fs";
import path from "node:path";
import { type BrowserContext, devices, expect } from "@playwright/test";
import { type MemberKey, type MemberSpec, members, type PreparedMember, preparedMembersFile } from "./members";
import { type E2eServer, readinessUrls, servers } from "./servers";
import { authKey, freshEmail, password, serviceToken } from "./support";

/**
 * Before the journeys (Playwright's global setup, once the servers answer): on every server, each
 * member of e2e/members.ts is made through the admin API as an operator would (no sign-up page, no
 * e-mail, no CLI), signed in by a one-time link, and their session stored as a Playwright storage
 * state for the journeys that sign in as them. In the runner itself, for all servers side by side:
 * as a project of its own it cost a worker started, and the journeys' workers started again after it.
 */
export default async function prepareMembers(): Promise<void> {
  const deadline = Date.now() + 60_000;
  await Promise.all(readinessUrls.map((url) => answering(url, deadline)));
  await Promise.all(servers.map(prepareMembersOf));
}

/** Waits until `url` answers as Playwright's own wait for a web server counts it (below 400). */
async function answering(url: string, deadline: number): Promise<void> {
  for (;;) {
    const status = await fetch(url).then(
      async (response) => {
        await response.body?.cancel();
        return response.status;
      },
      () => 0,
    );
    if (status >= 200 && status < 400) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer within a minute (its output is above, [WebServer])`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

interface Session {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  expires_at?: number;
  user: { id: string };
}

/** A JSON call to a server with plain fetch (a Playwright request context per member cost the setup most of its time). */
async function call<T>(url: string, init: { method?: string; headers?: Record<string, string>; body?: unknown }) {
  const response = await fetch(url, {
    method: init.method ?? "POST",
    headers: { ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  expect(response.ok, `${url}: ${response.status} ${text}`).toBe(true);
  return { body: (text ? JSON.parse(text) : undefined) as T, response };
}

type StorageCookie = StorageState["cookies"][number];

/** A `Set-Cookie` answer as a storage state's cookie (the photo access cookie: Path, Max-Age, HttpOnly, SameSite). */
function storageCookie(setCookie: string, server: E2eServer): StorageCookie {
  const [pair = "", ...attributes] = setCookie.split(";").map((part) => part.trim());
  const equals = pair.indexOf("=");
  const attribute = (name: string) =>
    attributes.find((each) => each.toLowerCase().startsWith(`${name.toLowerCase()}=`))?.split("=")[1];
  const maxAge = Number(attribute("Max-Age") ?? -1);
  const sameSite = (attribute("SameSite") ?? "Lax").toLowerCase();
  return {
    name: pair.slice(0, equals),
    value: decodeURIComponent(pair.slice(equals + 1)),
    domain: new URL(server.url).hostname,
    path: attribute("Path") ?? "/",
    expires: maxAge >= 0 ? Math.floor(Date.now() / 1000) + maxAge : -1,
    httpOnly: attributes.some((each) => each.toLowerCase() === "httponly"),
    secure: attributes.some((each) => each.toLowerCase() === "secure"),
    sameSite: sameSite === "strict" ? "Strict" : sameSite === "none" ? "None" : "Lax",
  };
}

async function prepareMembersOf(server: E2eServer): Promise<void> {
  const admin = { authorization: `Bearer ${await serviceToken()}` };
  fs.mkdirSync(server.sessionsDir, { recursive: true });

  const prepare = async (key: MemberKey, spec: MemberSpec): Promise<PreparedMember & { session: Session }> => {
    const email = freshEmail(spec.label);
    const data = spec.name ? { full_name: spec.name } : undefined;
    // With a password: made confirmed with it. Without: the one-time link below makes the account.
    if (spec.password)
      await call(`${server.url}/auth/v1/admin/users`, {
        headers: admin,
        body: { email, password, email_confirm: true, user_metadata: data },
      });
    const { body: link } = await call<{ hashed_token: string; verification_type: string }>(
      `${server.url}/auth/v1/admin/generate_link`,
      { headers: admin, body: { type: "magiclink", email, data } },
    );
    // The browser of the member: its session (its device named after the journeys' browser, as the
    // page's own sign-in would be), and the photo access cookie that session is given.
    const browser = { "user-agent": devices["Desktop Chrome"].userAgent };
    const { body: session } = await call<Session>(`${server.url}/auth/v1/verify`, {
      headers: browser,
      body: { type: link.verification_type, token_hash: link.hashed_token },
    });
    session.expires_at ??= Math.floor(Date.now() / 1000) + session.expires_in;
    const bearer = { ...browser, authorization: `Bearer ${session.access_token}` };
    const { response: access } = await call(`${server.url}/api/v1/photo-access`, { headers: bearer });
    // The first-run guide (ADR 0066) is closed: the journeys start from a home without it
    // (e2e/first-run-guide.spec.ts signs up members of its own to see it).
    await call(`${server.url}/api/v1/account/guide`, { method: "PUT", headers: bearer, body: { dismissed: true } });
    const cookies = access.headers.getSetCookie().map((each) => storageCookie(each, server));
    const storageState = path.join(server.sessionsDir, `${key}.json`);
    const state: StorageState = {
      cookies,
      origins: [{ origin: server.url, localStorage: [{ name: authKey, value: JSON.stringify(session) }] }],
    };
    fs.writeFileSync(storageState, JSON.stringify(state));
    return { email, storageState, session };
  };

  // The keeper first: the first account of a fresh server is its owner, who names the other owners.
  const keeper = await prepare("keeper", members.keeper);
  const others = (Object.entries(members) as [MemberKey, MemberSpec][]).filter(([key]) => key !== "keeper");
  const prepared = await Promise.all(others.map(async ([key, spec]) => [key, await prepare(key, spec)] as const));
  for (const [key, member] of prepared) {
    if (!(members[key] as MemberSpec).owner) continue;
    await call(`${server.url}/api/v1/members/${member.session.user.id}/role`, {
      method: "PUT",
      headers: { authorization: `Bearer ${keeper.session.access_token}` },
      body: { role: "owner" },
    });
  }

  const written: Record<string, PreparedMember> = { keeper: { email: keeper.email, storageState: keeper.storageState } };
  for (const [key, { email, storageState }] of prepared) written[key] = { email, storageState };
  fs.writeFileSync(preparedMembersFile(server), JSON.stringify(written, null, 2));
}
