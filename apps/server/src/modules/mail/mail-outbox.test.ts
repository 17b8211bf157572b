import { randomBytes } from "node:crypto";
import type { HealthResponse } from "@memory-box/contract";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { confirmedMember, linkIn, startAuthServer, type AuthTestServer, uniqueEmail } from "../../../test/auth-fixtures";
import { startTestSmtpServer, type TestSmtpServer } from "../../../test/smtp-test-server";
import { type SwitchableProxy, switchableProxy } from "../../../test/switchable-proxy";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { type DatabaseHandle, openDatabase } from "../../db/database";
import { defaultMailBackoff, MailOutbox, type MailOutboxOptions } from "./mail-outbox";
import { MailOutboxRepository } from "./mail-outbox.repository";
import { MailSeal } from "./mail-seal";
import { createMailer, type Mailer, type MailMessage } from "./mailer";

/**
 * The mail outbox (ADR 0077) with a real SMTP server behind a proxy the tests take down and bring
 * back, on each engine. The worker's clock is the test's; nothing sleeps for a backoff.
 */
const minute = 60_000;
const day = 24 * 60 * minute;

function recordingLog() {
  const lines: { level: string; obj: object; msg: string }[] = [];
  const record = (level: string) => (obj: object, msg: string) => void lines.push({ level, obj, msg });
  return { lines, info: record("info"), warn: record("warn"), error: record("error") };
}

describe("the default backoff", () => {
  it("doubles from a minute to at most an hour, between half and all of each step", () => {
    const low = (attempt: number) => defaultMailBackoff(attempt, () => 0);
    const high = (attempt: number) => defaultMailBackoff(attempt, () => 0.999999);
    expect([1, 2, 3, 4, 7, 8, 20].map(low)).toEqual([0.5, 1, 2, 4, 30, 30, 30].map((m) => m * minute));
    expect([1, 2, 3, 7, 20].map(high)).toEqual([1, 2, 4, 60, 60].map((m) => Math.round(m * minute * 0.9999995)));
  });
});

describe.each(testEngines())("the mail outbox (%s)", (engine) => {
  let smtp: TestSmtpServer;
  let gate: SwitchableProxy;

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    gate = await switchableProxy(smtp.url);
  });
  afterAll(async () => {
    await gate.close();
    await smtp.close();
  });

  describe("through the server", () => {
    let server: AuthTestServer;
    beforeAll(async () => {
      // The worker looks every 20 ms, on the test's clock: a backoff passes when the clock moves.
      server = await startAuthServer(engine, {
        smtp,
        env: { SMTP_URL: gate.url },
        mailOutbox: { pollMs: 20, random: () => 0.5 },
      });
    });
    afterAll(async () => {
      await gate.set("up");
      await server.close();
    });

    const health = async () => {
      const response = await server.app.inject({ method: "GET", url: "/api/health" });
      return { statusCode: response.statusCode, body: response.json<HealthResponse>(), text: response.body };
    };

    it("answers at once while the mail server is out, keeps the mail sealed, says so in health, and sends it once when it is back", async () => {
      const { email } = await confirmedMember(server);
      expect((await health()).body).toMatchObject({ status: "ok", mail: "ok", mail_queue: { waiting: 0 } });

      // A mail server that accepts connections and never answers: sending at once would hang for seconds.
      await gate.set("hang");
      const started = Date.now();
      expect((await server.client().auth.resetPasswordForEmail(email)).error).toBeNull();
      expect(Date.now() - started).toBeLessThan(1000);

      const rows = await server.db.selectFrom("mail_outbox").selectAll().where("kind", "=", "recovery").execute();
      expect(rows).toHaveLength(1);
      const row = rows[0]!;
      expect(row.sealed).toMatch(/^mail:v1:/);
      expect(row.sealed).not.toContain(email.split("@")[0]);

      // Now it refuses connections: the attempt under way fails and the mail waits for its backoff.
      await gate.set("down");
      await vi.waitFor(
        async () => {
          const waiting = await server.db
            .selectFrom("mail_outbox")
            .selectAll()
            .where("id", "=", row.id)
            .executeTakeFirstOrThrow();
          expect(waiting).toMatchObject({ state: "queued", attempts: 1, last_error: expect.any(String) as unknown });
        },
        { timeout: 5000, interval: 20 },
      );
      const degraded = await health();
      expect(degraded.statusCode).toBe(200);
      expect(degraded.body).toMatchObject({
        status: "degraded",
        database: "ok",
        mail: "degraded",
        mail_queue: {
          waiting: 1,
          oldest_waiting_seconds: expect.any(Number) as unknown,
          last_failure_at: expect.any(String) as unknown,
        },
      });
      expect(degraded.text).not.toContain(email);

      // Back, but the mail's backoff (45 s with this jitter) has not passed: it still waits.
      await gate.set("up");
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(smtp.messages.filter((mail) => mail.to.includes(email))).toHaveLength(1);
      server.clock.advance(46);
      const mail = await smtp.waitForMail(email, { subject: /Reset your/ });
      expect(linkIn(mail)).toContain("type=recovery");
      await vi.waitFor(async () => expect((await health()).body).toMatchObject({ status: "ok", mail: "ok" }), {
        timeout: 2000,
        interval: 20,
      });
      expect((await health()).body.mail_queue).toEqual({ waiting: 0, oldest_waiting_seconds: null, last_failure_at: null });
      const sent = await server.db.selectFrom("mail_outbox").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
      expect(sent).toMatchObject({ state: "sent", sealed: null, attempts: 2, last_error: null });
      // Once: the confirmation and this one.
      expect(smtp.messages.filter((received) => received.to.includes(email))).toHaveLength(2);
    });

    it("keeps Supabase Auth's minimum interval between two mails while the first waits", async () => {
      const { email } = await confirmedMember(server);
      await gate.set("down");
      const { auth } = server.client();
      expect((await auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
      // The quiet flows say nothing of the interval, which still holds: no second mail.
      expect((await auth.signInWithOtp({ email, options: { shouldCreateUser: false } })).error).toBeNull();
      await vi.waitFor(
        async () => {
          const queued = await server.db.selectFrom("mail_outbox").selectAll().where("kind", "=", "magic_link").execute();
          expect(queued).toMatchObject([{ state: "queued", attempts: 1 }]);
        },
        { timeout: 5000, interval: 20 },
      );
      await gate.set("up");
      server.clock.advance(60);
      await smtp.waitForMail(email, { subject: /sign-in link/ });
    });
  });

  describe("its worker", () => {
    let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
    let transport: Mailer;
    let nowMs = Date.now();
    const clock = () => new Date(nowMs);
    const seal = new MailSeal(randomBytes(32));
    const workers: MailOutbox[] = [];
    const extraConnections: DatabaseHandle[] = [];

    const worker = (log = recordingLog(), options: MailOutboxOptions = {}, db = database.db) => {
      const outbox = new MailOutbox(
        { repository: new MailOutboxRepository(db), db, seal, transport, log, messageIdDomain: "box.example.org" },
        { pollMs: 3_600_000, now: clock, random: () => 0.5, ...options },
      );
      workers.push(outbox);
      return outbox;
    };
    const mail = (to: string, kind = "magic_link"): MailMessage => ({
      kind,
      to,
      subject: `Sign in ${to}`,
      text: `Open https://box.example.org/auth/v1/verify?token=secret-${to} or type 123456`,
      html: "<p>Open the link</p>",
      link: `https://box.example.org/auth/v1/verify?token=secret-${to}`,
    });
    const rowsTo = async () => database.db.selectFrom("mail_outbox").selectAll().orderBy("created_at").execute();
    const received = (to: string) => smtp.messages.filter((message) => message.to.includes(to));

    beforeAll(async () => {
      database = await openMigratedTestDatabase(engine);
      transport = createMailer({
        smtpUrl: gate.url,
        from: "Box <no-reply@box.example.org>",
        dataDir: "/nonexistent",
        logger: recordingLog(),
      });
    });
    afterEach(async () => {
      await Promise.all(workers.splice(0).map((outbox) => outbox.stop()));
      await Promise.all(extraConnections.splice(0).map((connection) => connection.destroy()));
      await gate.set("up");
      await database.db.deleteFrom("mail_outbox").execute();
    });
    afterAll(async () => {
      await transport.close();
      await database.close();
    });

    it("pauses while the mail server is out, then sends everything that waited, once each, in the order queued", async () => {
      await gate.set("down");
      // One at a time, so the order they reach the server is the order they were taken in.
      const outbox = worker(recordingLog(), { concurrency: 1 });
      const to = [uniqueEmail("a"), uniqueEmail("b"), uniqueEmail("c")];
      for (const address of to) {
        nowMs += 1;
        await outbox.send(mail(address));
      }
      outbox.start();
      await outbox.settle();
      // One attempt, then a pause instead of trying every mail.
      const afterOutage = await rowsTo();
      expect(afterOutage.map((row) => row.attempts)).toEqual([1, 0, 0]);
      expect(afterOutage.every((row) => row.state === "queued")).toBe(true);
      expect((await outbox.health()).status).toBe("degraded");

      // Within the pause nothing is tried, even when woken.
      nowMs += 10_000;
      outbox.wake();
      await outbox.settle();
      expect((await rowsTo()).reduce((sum, row) => sum + row.attempts, 0)).toBe(
        afterOutage.reduce((sum, row) => sum + row.attempts, 0),
      );

      await gate.set("up");
      nowMs += 2 * minute;
      outbox.wake();
      await outbox.settle();
      const rows = await rowsTo();
      expect(rows.map((row) => row.state)).toEqual(["sent", "sent", "sent"]);
      expect(rows.every((row) => row.sealed === null)).toBe(true);
      for (const address of to) expect(received(address)).toHaveLength(1);
      // In the order queued, the one tried first included.
      expect(smtp.messages.filter((message) => to.includes(message.to[0]!)).map((message) => message.to[0])).toEqual(to);
      expect(await outbox.health()).toEqual({ status: "ok", waiting: 0, oldestWaitingSeconds: null, lastFailureAt: null });
    });

    it("tries a mail again after its backoff, and gives it up three days after it was queued, logging neither address nor link", async () => {
      await gate.set("down");
      const log = recordingLog();
      const outbox = worker(log);
      const address = uniqueEmail("never");
      await outbox.send(mail(address));
      outbox.start();
      await outbox.settle();
      const [first] = await rowsTo();
      expect(first).toMatchObject({ state: "queued", attempts: 1 });
      // 45 s: half a minute plus half of the other half, with this jitter.
      expect(Date.parse(first!.run_after) - nowMs).toBe(45_000);

      const attempts: number[] = [];
      for (let step = 0; step < 200; step++) {
        const row = (await rowsTo())[0]!;
        if (row.state !== "queued") break;
        nowMs = Math.max(Date.parse(row.run_after), nowMs + minute) + 1;
        outbox.wake();
        await outbox.settle();
        attempts.push((await rowsTo())[0]!.attempts);
      }
      const [last] = await rowsTo();
      expect(last).toMatchObject({ state: "failed", sealed: null });
      expect(Date.parse(last!.updated_at) - Date.parse(last!.created_at)).toBeGreaterThanOrEqual(3 * day - 2 * 3600_000);
      expect(Date.parse(last!.updated_at) - Date.parse(last!.created_at)).toBeLessThanOrEqual(3 * day + 2 * minute);
      // Backed off up to an hour (45 min with this jitter): some hundred attempts over three days, not thousands.
      expect(last!.attempts).toBeGreaterThan(90);
      expect(last!.attempts).toBeLessThan(110);
      expect(log.lines.some((line) => line.msg.startsWith("mail given up"))).toBe(true);
      const logged = JSON.stringify(log.lines);
      expect(logged).not.toContain(address);
      expect(logged).not.toContain("secret-");
      expect(received(address)).toHaveLength(0);
      await gate.set("up");
    });

    it("does not try again a mail the server refused for good", async () => {
      const outbox = worker();
      const address = uniqueEmail("refused");
      smtp.rejectNext(1);
      await outbox.send(mail(address));
      outbox.start();
      await outbox.settle();
      expect(await rowsTo()).toMatchObject([{ state: "rejected", sealed: null, attempts: 1, last_error: "smtp_550" }]);
      // The server answered: mail is not degraded by one address it refuses.
      expect((await outbox.health()).status).toBe("ok");
      nowMs += day;
      outbox.wake();
      await outbox.settle();
      expect(await rowsTo()).toMatchObject([{ state: "rejected", attempts: 1 }]);
    });

    it("sends after a restart what a killed process had taken, once its lease expired, under the same Message-ID", async () => {
      const address = uniqueEmail("restart");
      // The killed process: queued the mail and took it, then died before sending.
      const killed = worker();
      await killed.send(mail(address));
      const repository = new MailOutboxRepository(database.db);
      const taken = await repository.claim("killed", clock().toISOString(), new Date(nowMs + 2 * minute).toISOString());
      expect(taken).toMatchObject({ state: "sending", attempts: 1 });

      const restarted = worker();
      restarted.start();
      await restarted.settle();
      expect(received(address)).toHaveLength(0);
      nowMs += 2 * minute + 1000;
      restarted.wake();
      await restarted.settle();
      const [sent] = received(address);
      expect(sent?.raw).toMatch(new RegExp(`^Message-ID: <${taken!.id}@box\\.example\\.org>\\r?$`, "mi"));
      expect(await rowsTo()).toMatchObject([{ state: "sent", attempts: 2 }]);
    });

    it("gives up a mail another key sealed, and removes finished rows after a week", async () => {
      const outbox = worker();
      const other = new MailOutbox(
        {
          repository: new MailOutboxRepository(database.db),
          db: database.db,
          seal: new MailSeal(randomBytes(32)),
          transport,
          log: recordingLog(),
          messageIdDomain: "box.example.org",
        },
        { now: clock },
      );
      await other.send(mail(uniqueEmail("other-key")));
      outbox.start();
      await outbox.settle();
      expect(await rowsTo()).toMatchObject([{ state: "failed", sealed: null, last_error: "unreadable", attempts: 1 }]);
      nowMs += 7 * day + 1000;
      await outbox.sweep();
      expect(await rowsTo()).toEqual([]);
    });

    it.skipIf(engine === "sqlite")("lets two processes on one database send each mail once", async () => {
      const to = Array.from({ length: 12 }, (_, index) => uniqueEmail(`pair-${index}`));
      const first = worker();
      for (const address of to) await first.send(mail(address));
      const connection = openDatabase(database.config);
      extraConnections.push(connection);
      const second = worker(recordingLog(), {}, connection.db);
      first.start();
      second.start();
      await vi.waitFor(
        async () => {
          await Promise.all([first.settle(), second.settle()]);
          expect((await rowsTo()).every((row) => row.state === "sent")).toBe(true);
        },
        { timeout: 5000, interval: 20 },
      );
      for (const address of to) expect(received(address)).toHaveLength(1);
      expect((await rowsTo()).every((row) => row.attempts === 1)).toBe(true);
    });
  });
});
