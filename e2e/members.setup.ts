import fs from "node:fs";
import path from "node:path";
import { type APIRequestContext, devices, expect, request } from "@playwright/test";
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

interface Session {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  expires_at?: number;
  user: { id: string };
}

async function answer<T>(response: Awaited<ReturnType<APIRequestContext["post"]>>): Promise<T> {
  expect(response.ok(), `${response.url()}: ${response.status()} ${await response.text()}`).toBe(true);
  return (await response.json()) as T;
}

async function prepareMembersOf(server: E2eServer): Promise<void> {
  const admin = await request.newContext({
    baseURL: server.url,
    extraHTTPHeaders: { authorization: `Bearer ${await serviceToken()}` },
  });
  fs.mkdirSync(server.sessionsDir, { recursive: true });

  const prepare = async (key: MemberKey, spec: MemberSpec): Promise<PreparedMember & { session: Session }> => {
    const email = freshEmail(spec.label);
    const data = spec.name ? { full_name: spec.name } : undefined;
    // With a password: made confirmed with it. Without: the one-time link below makes the account.
    if (spec.password)
      await answer(
        await admin.post("/auth/v1/admin/users", {
          data: { email, password, email_confirm: true, user_metadata: data },
        }),
      );
    const link = await answer<{ hashed_token: string; verification_type: string }>(
      await admin.post("/auth/v1/admin/generate_link", { data: { type: "magiclink", email, data } }),
    );
    // The browser of the member: its session (its device named after the journeys' browser, as the
    // page's own sign-in would be), and the photo access cookie that session is given.
    const browser = await request.newContext({
      baseURL: server.url,
      userAgent: devices["Desktop Chrome"].userAgent,
    });
    const session = await answer<Session>(
      await browser.post("/auth/v1/verify", { data: { type: link.verification_type, token_hash: link.hashed_token } }),
    );
    session.expires_at ??= Math.floor(Date.now() / 1000) + session.expires_in;
    await answer(await browser.post("/api/v1/photo-access", { headers: { authorization: `Bearer ${session.access_token}` } }));
    // The first-run guide (ADR 0066) is closed: the journeys start from a home without it
    // (e2e/first-run-guide.spec.ts signs up members of its own to see it).
    await answer(
      await browser.put("/api/v1/account/guide", {
        headers: { authorization: `Bearer ${session.access_token}` },
        data: { dismissed: true },
      }),
    );
    const { cookies } = await browser.storageState();
    await browser.dispose();
    const storageState = path.join(server.sessionsDir, `${key}.json`);
    fs.writeFileSync(
      storageState,
      JSON.stringify({
        cookies,
        origins: [{ origin: server.url, localStorage: [{ name: authKey, value: JSON.stringify(session) }] }],
      }),
    );
    return { email, storageState, session };
  };

  // The keeper first: the first account of a fresh server is its owner, who names the other owners.
  const keeper = await prepare("keeper", members.keeper);
  const others = (Object.entries(members) as [MemberKey, MemberSpec][]).filter(([key]) => key !== "keeper");
  const prepared = await Promise.all(others.map(async ([key, spec]) => [key, await prepare(key, spec)] as const));
  for (const [key, member] of prepared) {
    if (!(members[key] as MemberSpec).owner) continue;
    await answer(
      await admin.put(`/api/v1/members/${member.session.user.id}/role`, {
        headers: { authorization: `Bearer ${keeper.session.access_token}` },
        data: { role: "owner" },
      }),
    );
  }
  await admin.dispose();

  const written: Record<string, PreparedMember> = { keeper: { email: keeper.email, storageState: keeper.storageState } };
  for (const [key, { email, storageState }] of prepared) written[key] = { email, storageState };
  fs.writeFileSync(preparedMembersFile(server), JSON.stringify(written, null, 2));
}
