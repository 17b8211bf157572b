import type { Memory } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../cli/run-cli";
import type { DatabaseConfig } from "../../config";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { openStream } from "../../../test/event-stream";
import { availableEngines, testEngines } from "../../../test/test-database";

describe.each(testEngines())("live events on %s", (engine) => {
  let testApp: TestApp;
  let baseUrl: string;
  let ann: TestMember;
  let ben: TestMember;

  beforeAll(async () => {
    testApp = await createTestApp(engine, {
      env: { AUTH_RATE_LIMITS: "false" },
      eventsHeartbeatMs: 200,
    });
    baseUrl = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    ann = await createMember(testApp, "ann@memory-box.test");
    ben = await createMember(testApp, "ben@memory-box.test");
  });
  afterAll(() => testApp.close());

  it("refuses anyone who is not signed in", async () => {
    const response = await fetch(`${baseUrl}/api/v1/events`);
    expect(response.status).toBe(401);
  });

  it("tells a member what the other member created, changed and deleted", async () => {
    const stream = await openStream(baseUrl, ann);
    expect(stream.response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(stream.response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(stream.response.headers.get("x-request-id")).toBeTruthy();
    const created = (
      await testApp.app.inject({ method: "POST", url: "/api/v1/memories", headers: ben.headers, payload: { title: "Live" } })
    ).json<Memory>();
    const createdEvent = await stream.waitFor((event) => event.event === "memory.created");
    expect(JSON.parse(createdEvent.data)).toEqual({ id: created.id, actor: ben.userId });
    await testApp.app.inject({
      method: "PUT",
      url: `/api/v1/memories/${created.id}`,
      headers: ben.headers,
      payload: { title: "Live, edited" },
    });
    await stream.waitFor((event) => event.event === "memory.updated");
    await testApp.app.inject({ method: "DELETE", url: `/api/v1/memories/${created.id}`, headers: ben.headers });
    await stream.waitFor((event) => event.event === "memory.deleted");
    await stream.close();
  });

  it("tells a member of the other member's comments and reactions on a memory, and of nothing that changed nothing", async () => {
    // The stream is open before the memory is made: on PostgreSQL an event published just before a
    // stream opens may still reach it, so the list starts from a known event.
    const stream = await openStream(baseUrl, ann);
    const memory = (
      await testApp.app.inject({
        method: "POST",
        url: "/api/v1/memories",
        headers: ann.headers,
        payload: { title: "Talked about" },
      })
    ).json<Memory>();
    await stream.waitFor((event) => event.event === "memory.created");
    const ask = (method: "POST" | "PATCH" | "PUT" | "DELETE", path: string, payload?: object) =>
      testApp.app.inject({
        method,
        url: `/api/v1/memories/${memory.id}${path}`,
        headers: ben.headers,
        ...(payload ? { payload } : {}),
      });
    const heart = `/reactions/${encodeURIComponent("❤️")}`;

    const comment = (await ask("POST", "/comments", { body: "Lovely" })).json<{ id: string }>();
    await ask("PATCH", `/comments/${comment.id}`, { body: "Lovely!" });
    await ask("PATCH", `/comments/${comment.id}`, { body: "Lovely!" });
    await ask("DELETE", `/comments/${comment.id}`);
    await ask("PUT", heart);
    await ask("PUT", heart);
    await ask("DELETE", heart);
    await ask("DELETE", heart);
    await stream.waitFor(
      (event) => event.event === "reaction.changed" && stream.events.filter((e) => e.event === event.event).length === 2,
    );
    // Give a stray event time to arrive: an unchanged edit or a repeated reaction must not publish.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stream.events.map((event) => event.event)).toEqual([
      "memory.created",
      "comment.created",
      "comment.updated",
      "comment.deleted",
      "reaction.changed",
      "reaction.changed",
    ]);
    for (const event of stream.events.slice(1)) expect(JSON.parse(event.data)).toEqual({ id: memory.id, actor: ben.userId });
    await stream.close();
  });

  it("tells a member when the other renamed themselves, so greetings and cards follow", async () => {
    const stream = await openStream(baseUrl, ann);
    const renamed = await testApp.app.inject({
      method: "PUT",
      url: "/auth/v1/user",
      headers: ben.headers,
      payload: { data: { full_name: "Benjamin" } },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const event = await stream.waitFor((candidate) => candidate.event === "profile.updated");
    expect(JSON.parse(event.data)).toEqual({ id: ben.userId, actor: ben.userId });
    await stream.close();
  });

  it("replays what was missed after a reconnect, or asks for a reload when it cannot", async () => {
    const first = await openStream(baseUrl, ann);
    await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ben.headers,
      payload: { title: "Before the drop" },
    });
    const seen = await first.waitFor((event) => event.event === "memory.created");
    await first.close();
    const missed = (
      await testApp.app.inject({
        method: "POST",
        url: "/api/v1/memories",
        headers: ben.headers,
        payload: { title: "While away" },
      })
    ).json<Memory>();

    const resumed = await openStream(baseUrl, ann, seen.id);
    const replayed = await resumed.waitFor((event) => event.event === "memory.created");
    expect(JSON.parse(replayed.data)).toMatchObject({ id: missed.id });
    await resumed.close();

    const unknown = await openStream(baseUrl, ann, "000000000000001-000000001");
    await unknown.waitFor((event) => event.event === "resync");
    await unknown.close();
  });

  it("ends the stream when the member's session ends", async () => {
    const carol = await createMember(testApp, "carol@memory-box.test");
    const stream = await openStream(baseUrl, carol);
    await testApp.app.inject({ method: "POST", url: "/auth/v1/logout?scope=global", headers: carol.headers });
    const deadline = Date.now() + 5000;
    while (!stream.hasEnded() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(stream.hasEnded()).toBe(true);
    await stream.close();
  });
});

describe.runIf(availableEngines.includes("postgres"))(
  "live events across two server processes on one PostgreSQL database",
  () => {
    let first: TestApp;
    let second: TestApp;

    beforeAll(async () => {
      first = await createTestApp("postgres", { env: { AUTH_RATE_LIMITS: "false" } });
      second = await createTestApp("postgres", {
        env: { AUTH_RATE_LIMITS: "false" },
        sharedDatabase: first.config.database,
      });
    });
    afterAll(async () => {
      await second.close();
      await first.close();
    });

    it("delivers a change made through one server to a member connected to the other", async () => {
      const baseUrl = await first.app.listen({ port: 0, host: "127.0.0.1" });
      const ann = await createMember(first, "ann@memory-box.test");
      const ben = await createMember(second, "ben@memory-box.test");
      const stream = await openStream(baseUrl, ann);
      const created = (
        await second.app.inject({
          method: "POST",
          url: "/api/v1/memories",
          headers: ben.headers,
          payload: { title: "From the other server" },
        })
      ).json<Memory>();
      const event = await stream.waitFor((received) => received.event === "memory.created");
      expect(JSON.parse(event.data)).toEqual({ id: created.id, actor: ben.userId });
      await stream.close();
    });
  },
);

/** Resolves once the stream has ended, or after `withinMs` with whether it did. */
async function endsWithin(stream: { hasEnded(): boolean }, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (!stream.hasEnded() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return stream.hasEnded();
}

/** A second session of the member, as another device signing in with the password. */
async function signInAgain(testApp: TestApp, member: TestMember): Promise<{ authorization: string }> {
  const response = await testApp.app.inject({
    method: "POST",
    url: "/auth/v1/token?grant_type=password",
    payload: { email: member.email, password: "correct horse battery" },
  });
  expect(response.statusCode, response.body).toBe(200);
  return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
}

// With the default heartbeat (25 s), so a stream that closes within a second was closed by the
// access hint, not by its heartbeat's re-check.
describe.each(testEngines())("live streams end within a second when access ends, on %s", (engine) => {
  let first: TestApp;
  /** On PostgreSQL, a second server process on the same database; on SQLite the same one. */
  let second: TestApp;
  let baseUrl: string;

  beforeAll(async () => {
    first = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    second =
      engine === "postgres"
        ? await createTestApp(engine, {
            env: { AUTH_RATE_LIMITS: "false" },
            sharedDatabase: first.config.database,
          })
        : first;
    baseUrl = await first.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    if (second !== first) await second.close();
    await first.close();
  });

  it("after a sign-out everywhere, made through any server", async () => {
    const member = await createMember(first, "everywhere@memory-box.test");
    const stream = await openStream(baseUrl, member);
    const signOut = await second.app.inject({ method: "POST", url: "/auth/v1/logout?scope=global", headers: member.headers });
    expect(signOut.statusCode).toBe(204);
    expect(await endsWithin(stream, 1000)).toBe(true);
    await stream.close();
  });

  it("after a password change on another device", async () => {
    const member = await createMember(first, "password@memory-box.test");
    const stream = await openStream(baseUrl, member);
    const otherDevice = await signInAgain(second, member);
    const change = await second.app.inject({
      method: "PUT",
      url: "/auth/v1/user",
      headers: otherDevice,
      payload: { password: "a different horse battery staple" },
    });
    expect(change.statusCode, change.body).toBe(200);
    expect(await endsWithin(stream, 1000)).toBe(true);
    await stream.close();
  });

  it("but not for the member's other devices when someone else signs out", async () => {
    const member = await createMember(first, "stays@memory-box.test");
    const other = await createMember(first, "leaves@memory-box.test");
    const stream = await openStream(baseUrl, member);
    await second.app.inject({ method: "POST", url: "/auth/v1/logout?scope=global", headers: other.headers });
    expect(await endsWithin(stream, 1000)).toBe(false);
    await stream.close();
  });
});

/** `invite --revoke` as the operator runs it: its own connection to the database, as another process has. */
async function revokeWithCli(database: DatabaseConfig, email: string): Promise<void> {
  const env = { DATABASE_URL: database.engine === "sqlite" ? `sqlite:${database.file}` : database.url };
  const errors: string[] = [];
  const code = await runCli(["invite", "--revoke", email], { env, out: () => {}, err: (line) => errors.push(line) });
  expect(errors).toEqual([]);
  expect(code).toBe(0);
}

// A revocation by the CLI reaches the servers only through the database (a NOTIFY on PostgreSQL,
// the access signal SQLite servers poll): two server instances on one database, neither hearing
// the other's bus, and the default 25 s heartbeat, so an end within a second came by that path.
describe.each(testEngines())(
  "a revocation by the CLI ends the member's streams on every server within a second, on %s",
  (engine) => {
    let first: TestApp;
    let second: TestApp;
    let firstUrl: string;
    let secondUrl: string;

    beforeAll(async () => {
      first = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
      second = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" }, sharedDatabase: first.config.database });
      // The first member is the owner, whom the CLI would not revoke.
      await createMember(first, "owner@memory-box.test");
      firstUrl = await first.app.listen({ port: 0, host: "127.0.0.1" });
      secondUrl = await second.app.listen({ port: 0, host: "127.0.0.1" });
    });
    afterAll(async () => {
      await second.close();
      await first.close();
    });

    it("tells each stream the session ended, then ends it", async () => {
      const member = await createMember(first, "revoked@memory-box.test");
      const onFirst = await openStream(firstUrl, member);
      const onSecond = await openStream(secondUrl, member);
      const bystander = await createMember(first, "bystander@memory-box.test");
      const untouched = await openStream(secondUrl, bystander);
      await new Promise((resolve) => setTimeout(resolve, 300));

      const revokedAt = Date.now();
      await revokeWithCli(first.config.database, member.email);
      expect(await endsWithin(onFirst, 1000)).toBe(true);
      expect(await endsWithin(onSecond, Math.max(0, revokedAt + 1000 - Date.now()))).toBe(true);
      for (const stream of [onFirst, onSecond]) {
        const ended = stream.events.find((event) => event.event === "session.ended");
        // The revocation ended its sessions too.
        expect(ended && JSON.parse(ended.data)).toEqual({ code: "session_not_found" });
      }
      expect(untouched.hasEnded()).toBe(false);
      expect(untouched.events.some((event) => event.event === "session.ended")).toBe(false);
      await Promise.all([onFirst.close(), onSecond.close(), untouched.close()]);
    });

    it("and the revoked token can neither reopen the stream nor read a memory, on either server", async () => {
      const member = await createMember(first, "locked-out@memory-box.test");
      const memory = (
        await first.app.inject({
          method: "POST",
          url: "/api/v1/memories",
          headers: member.headers,
          payload: { title: "Kept away" },
        })
      ).json<Memory>();
      await revokeWithCli(first.config.database, member.email);
      for (const [app, url] of [
        [first, firstUrl],
        [second, secondUrl],
      ] as const) {
        const reopened = await fetch(`${url}/api/v1/events`, { headers: member.headers });
        expect(reopened.status).toBe(401);
        expect(await reopened.json()).toMatchObject({ code: "session_not_found" });
        for (const path of ["/api/v1/memories", `/api/v1/memories/${memory.id}`]) {
          const read = await app.app.inject({ method: "GET", url: path, headers: member.headers });
          expect(read.statusCode, path).toBe(401);
          expect(read.body).not.toContain("Kept away");
        }
      }
    });

    it("a sign-out everywhere tells the stream why it ends", async () => {
      const member = await createMember(first, "told@memory-box.test");
      const stream = await openStream(firstUrl, member);
      await first.app.inject({ method: "POST", url: "/auth/v1/logout?scope=global", headers: member.headers });
      expect(await endsWithin(stream, 1000)).toBe(true);
      const ended = stream.events.find((event) => event.event === "session.ended");
      expect(ended && JSON.parse(ended.data)).toEqual({ code: "session_not_found" });
      await stream.close();
    });
  },
);
