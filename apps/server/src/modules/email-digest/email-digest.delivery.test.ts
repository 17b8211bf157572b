import { spawn } from "node:child_process";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { type CapturedMail, startTestSmtpServer, type TestSmtpServer } from "../../../test/smtp-test-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { type DatabaseHandle, openDatabase } from "../../db/database";
import { createMailer, type Mailer } from "../mail";
import { currentPeriod, type DigestSchedule } from "./digest-period";
import { EmailDigestRepository } from "./email-digest.repository";
import { EmailDigestService } from "./email-digest.service";

/**
 * The digest end to end (ADR 0060): the real server and a real SMTP server, on each engine, with a
 * clock the test moves forward (never back). The scheduler's runs are driven by hand through services on their
 * own database connections, as other server processes on the same database would be; restarts
 * start whole servers on the same database.
 */
const secret = "a-signing-secret-of-at-least-32-characters";
const publicUrl = "https://box.example.org";
const silent = { info: () => {}, warn: () => {}, error: () => {} };

/** The first instant after `from` at which the period of `schedule` in `timeZone` changes (a digest falls due). */
function nextDue(schedule: DigestSchedule, timeZone: string, from: Date): Date {
  const quarter = 15 * 60_000;
  const first = currentPeriod(schedule, timeZone, from);
  let at = Math.ceil((from.getTime() + 1) / quarter) * quarter;
  while (currentPeriod(schedule, timeZone, new Date(at)) === first) at += quarter;
  return new Date(at);
}

/** One header of a received mail, unfolded. */
function headerOf(mail: CapturedMail, name: string): string | undefined {
  const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
  const line = head.split(/\r?\n/).find((entry) => entry.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

describe.each(testEngines())("the e-mail digest (%s)", (engine) => {
  let smtp: TestSmtpServer;
  let testApp: TestApp;
  let ann: TestMember;
  let ben: TestMember;
  let database: DatabaseHandle;
  let mailer: Mailer;
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  const travelTo = (instant: Date) => {
    offset = instant.getTime() - Date.now();
  };
  const env = () => ({ SMTP_URL: smtp.url, PUBLIC_URL: publicUrl, PHOTO_URL_SECRET: secret });
  /** A server process's digest service, on its own connection (closed with the test's). */
  const serverProcess = (through: Mailer = mailer) =>
    new EmailDigestService({
      digests: new EmailDigestRepository(database.db),
      mailer: through,
      secret: Buffer.from(secret, "utf8"),
      siteUrl: publicUrl,
      publicUrl,
      log: silent,
      now: clock,
    });
  const mailsTo = (member: TestMember) => smtp.messages.filter((mail) => mail.to.includes(member.email));
  const choose = async (member: TestMember, digest: "off" | "daily" | "weekly", timeZone: string) => {
    const response = await testApp.app.inject({
      method: "PUT",
      url: "/api/v1/notifications/email",
      headers: member.headers,
      payload: { digest, time_zone: timeZone },
    });
    expect(response.statusCode).toBe(200);
  };
  /** A memory added through the API, at the test's clock (the memories service keeps real time). */
  const addMemory = async (member: TestMember, title: string, memoryDate?: string): Promise<string> => {
    const response = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: member.headers,
      payload: { title, ...(memoryDate ? { memory_date: memoryDate } : {}) },
    });
    expect(response.statusCode).toBe(201);
    const { id } = response.json<{ id: string }>();
    await database.db.updateTable("memories").set({ created_at: clock().toISOString() }).where("id", "=", id).execute();
    return id;
  };

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    // The server members use keeps real time (their sessions would expire as the clock travels);
    // the digest's processes and restarted servers read the test's clock.
    testApp = await createTestApp(engine, { env: env() });
    ann = await createMember(testApp, "ann@example.org", "Ann");
    ben = await createMember(testApp, "ben@example.org", "Ben");
    database = openDatabase(testApp.config.database);
    mailer = createMailer({
      smtpUrl: smtp.url,
      from: "Memory Box <digest@box.example.org>",
      dataDir: "/nonexistent",
      logger: silent,
    });
  });

  afterAll(async () => {
    await mailer?.close();
    await database?.destroy();
    await testApp?.close();
    await smtp?.close();
  });

  it("sends a partner's memories as one daily digest with both parts and the one-click headers; own memories none", async () => {
    await choose(ann, "daily", "Europe/Lisbon");
    await choose(ben, "daily", "Europe/Lisbon");
    const first = await addMemory(ben, "Our first dinner at <Chez Léon>", "2026-11-03");
    const second = await addMemory(ben, "Sunday walk");
    await addMemory(ben, "Kites");

    // Not before 08:00 on the member's clock.
    const due = nextDue("daily", "Europe/Lisbon", clock());
    travelTo(new Date(due.getTime() - 60_000));
    expect(await serverProcess().runDue()).toEqual({ sent: 0, empty: 0, failed: 0 });
    travelTo(new Date(due.getTime() + 60_000));
    const run = await serverProcess().runDue();

    expect(run).toEqual({ sent: 1, empty: 1, failed: 0 });
    const mail = await smtp.waitForMail(ann.email);
    expect(mail.subject).toBe("Ben added 3 memories since yesterday");
    expect(mail.text).toContain(`- Our first dinner at <Chez Léon> (3 November 2026)\n  ${publicUrl}/memory/${first}`);
    expect(mail.text).toContain(`- Sunday walk\n  ${publicUrl}/memory/${second}`);
    expect(mail.html).toContain(
      `<a href="${publicUrl}/memory/${first}" style="color:#b5485d;">Our first dinner at &lt;Chez Léon&gt;</a>`,
    );
    expect(mail.html).not.toMatch(/<img/i);
    const oneClick = headerOf(mail, "List-Unsubscribe");
    expect(oneClick).toMatch(
      new RegExp(`^<${publicUrl}/api/v1/notifications/email/unsubscribe\\?token=${ann.userId}\\.[A-Za-z0-9_-]{43}>$`),
    );
    expect(headerOf(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    // The visible link is the web page that asks first; it carries the same token.
    const token = new URL(oneClick!.slice(1, -1)).searchParams.get("token")!;
    expect(mail.text).toContain(`Unsubscribe from this digest: ${publicUrl}/unsubscribe?token=${token}`);
    // Ben added them himself: nothing for him.
    expect(mailsTo(ben)).toHaveLength(0);

    // The period is done: another run, here or in another process, sends nothing more.
    expect(await serverProcess().runDue()).toEqual({ sent: 0, empty: 0, failed: 0 });
    expect(mailsTo(ann)).toHaveLength(1);
  });

  it("sends nothing when nothing was added", async () => {
    const before = smtp.messages.length;
    travelTo(new Date(nextDue("daily", "Europe/Lisbon", clock()).getTime() + 60_000));
    expect(await serverProcess().runDue()).toEqual({ sent: 0, empty: 2, failed: 0 });
    expect(smtp.messages).toHaveLength(before);
  });

  it("sends a period's digest once when several processes run at the same moment", async () => {
    await addMemory(ben, "Snow");
    travelTo(new Date(nextDue("daily", "Europe/Lisbon", clock()).getTime() + 60_000));
    const others = [openDatabase(testApp.config.database), openDatabase(testApp.config.database)];
    try {
      const services = others.map(
        (handle) =>
          new EmailDigestService({
            digests: new EmailDigestRepository(handle.db),
            mailer,
            secret: Buffer.from(secret, "utf8"),
            siteUrl: publicUrl,
            publicUrl,
            log: silent,
            now: clock,
          }),
      );
      const runs = await Promise.all([serverProcess().runDue(), ...services.map((service) => service.runDue())]);
      expect(runs.reduce((sum, run) => sum + run.sent, 0)).toBe(1);
    } finally {
      await Promise.all(others.map((handle) => handle.destroy()));
    }
    await smtp.waitForMail(ann.email, { subject: /Ben added a memory since yesterday/ });
    expect(mailsTo(ann)).toHaveLength(2);
  });

  it("sends the digest due at a restart once, however often the server starts", async () => {
    await addMemory(ben, "The lake");
    travelTo(new Date(nextDue("daily", "Europe/Lisbon", clock()).getTime() + 60_000));
    // The server starting runs the scheduler at once: the digest due leaves.
    const restarted = await createTestApp(engine, { now: clock, env: env(), sharedDatabase: testApp.config.database });
    await restarted.app.ready();
    const mail = await smtp.waitForMail(ann.email, { subject: /since yesterday/ });
    expect(mail.text).toContain("The lake");
    await restarted.close();
    // Started again in the same period: nothing more.
    const again = await createTestApp(engine, { now: clock, env: env(), sharedDatabase: testApp.config.database });
    await again.app.ready();
    await again.close();
    expect(await serverProcess().runDue()).toEqual({ sent: 0, empty: 0, failed: 0 });
    expect(mailsTo(ann)).toHaveLength(3);
  });

  it("takes a digest whose process died holding it again once the claim expires (kill -9)", async () => {
    await addMemory(ben, "Lanterns");
    travelTo(new Date(nextDue("daily", "Europe/Lisbon", clock()).getTime() + 60_000));
    const repository = new EmailDigestRepository(database.db);
    const [recipient] = (await repository.recipients(clock().toISOString())).filter((row) => row.user_id === ann.userId);
    const period = currentPeriod("daily", "Europe/Lisbon", clock());
    const now = clock();
    // A process claimed Ann's digest, then was killed before sending: its claim stays behind.
    expect(
      await repository.claim(
        recipient!,
        period,
        "killed-process",
        now.toISOString(),
        new Date(now.getTime() + 300_000).toISOString(),
      ),
    ).toBeDefined();
    expect(await serverProcess().runDue()).toEqual({ sent: 0, empty: 1, failed: 0 });
    expect(mailsTo(ann)).toHaveLength(3);

    travelTo(new Date(now.getTime() + 301_000));
    expect(await serverProcess().runDue()).toEqual({ sent: 1, empty: 0, failed: 0 });
    const mail = await smtp.waitForMail(ann.email);
    expect(mail.text).toContain("Lanterns");
    expect(await serverProcess().runDue()).toEqual({ sent: 0, empty: 0, failed: 0 });
    expect(mailsTo(ann)).toHaveLength(4);
  });

  it("sends once a digest whose server process was killed (SIGKILL) while the mail was in flight", async () => {
    await addMemory(ben, "Fireworks");
    const due = new Date(nextDue("daily", "Europe/Lisbon", clock()).getTime() + 60_000);
    travelTo(due);
    // A mail server that takes the message and never answers: the process is killed mid-send.
    let received!: () => void;
    const inFlight = new Promise<void>((resolve) => (received = resolve));
    const hanging = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      logger: false,
      closeTimeout: 200,
      onData: (stream) => {
        stream.resume();
        stream.on("end", () => received());
      },
    });
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", () => resolve()));
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(import.meta.dirname, "test-fixtures/digest-process.ts")],
      {
        cwd: path.resolve(import.meta.dirname, "../../.."),
        env: {
          ...process.env,
          DIGEST_DATABASE: JSON.stringify(testApp.config.database),
          DIGEST_CLOCK_OFFSET: String(offset),
          DIGEST_PUBLIC_URL: publicUrl,
          DIGEST_SECRET: secret,
          DIGEST_SMTP_URL: `smtp://127.0.0.1:${(hanging.server.address() as AddressInfo).port}`,
        },
        stdio: ["ignore", "pipe", "inherit"],
      },
    );
    try {
      await inFlight;
      child.kill("SIGKILL");
      await once(child, "exit");
    } finally {
      child.kill("SIGKILL");
      await new Promise<void>((resolve) => hanging.close(() => resolve()));
    }
    // Its claim outlives it: nobody sends while it holds, and the mail it was sending never left.
    expect((await serverProcess().runDue()).sent).toBe(0);
    expect(mailsTo(ann)).toHaveLength(4);
    travelTo(new Date(due.getTime() + 6 * 60_000));
    expect(await serverProcess().runDue()).toEqual({ sent: 1, empty: 0, failed: 0 });
    expect((await smtp.waitForMail(ann.email)).text).toContain("Fireworks");
    expect(await serverProcess().runDue()).toEqual({ sent: 0, empty: 0, failed: 0 });
    expect(mailsTo(ann)).toHaveLength(5);
  }, 30_000);

  it("tries a digest again later when the mail server is down or refuses it, and sends it once", async () => {
    await addMemory(ben, "Harbour");
    const due = new Date(nextDue("daily", "Europe/Lisbon", clock()).getTime() + 60_000);
    travelTo(due);
    // No mail server listening at all.
    const down = createMailer({
      smtpUrl: "smtp://127.0.0.1:1",
      from: "x@box.example.org",
      dataDir: "/nonexistent",
      logger: silent,
    });
    try {
      expect(await serverProcess(down).runDue()).toEqual({ sent: 0, empty: 1, failed: 1 });
    } finally {
      await down.close();
    }
    // Not at once: after the backoff (5 minutes for a first failure).
    expect(await serverProcess().runDue()).toEqual({ sent: 0, empty: 0, failed: 0 });
    travelTo(new Date(due.getTime() + 4 * 60_000));
    expect(await serverProcess().runDue()).toEqual({ sent: 0, empty: 0, failed: 0 });
    // Back, but refusing the message: the backoff doubles (10 minutes).
    travelTo(new Date(due.getTime() + 6 * 60_000));
    smtp.rejectNext(1);
    expect(await serverProcess().runDue()).toEqual({ sent: 0, empty: 0, failed: 1 });
    travelTo(new Date(due.getTime() + 15 * 60_000));
    expect(await serverProcess().runDue()).toEqual({ sent: 0, empty: 0, failed: 0 });
    travelTo(new Date(due.getTime() + 17 * 60_000));
    expect(await serverProcess().runDue()).toEqual({ sent: 1, empty: 0, failed: 0 });
    expect((await smtp.waitForMail(ann.email)).text).toContain("Harbour");
    expect(await serverProcess().runDue()).toEqual({ sent: 0, empty: 0, failed: 0 });
    expect(mailsTo(ann)).toHaveLength(6);
  });

  it("sends a weekly digest on Monday at 08:00 in the member's time zone (Pacific/Auckland)", async () => {
    await choose(ann, "weekly", "Pacific/Auckland");
    await addMemory(ben, "Picnic", "2026-11-20");
    const monday = nextDue("weekly", "Pacific/Auckland", clock());
    // Monday 08:00 in Auckland is Sunday evening in UTC.
    expect(monday.getUTCDay()).toBe(0);
    expect(monday.getUTCHours()).toBeGreaterThanOrEqual(18);
    // The daily mornings of the week before send nothing to a weekly reader.
    travelTo(new Date(monday.getTime() - 24 * 3600_000));
    expect((await serverProcess().runDue()).sent).toBe(0);
    travelTo(new Date(monday.getTime() - 60_000));
    expect((await serverProcess().runDue()).sent).toBe(0);
    expect(mailsTo(ann)).toHaveLength(6);
    travelTo(new Date(monday.getTime() + 60_000));
    expect((await serverProcess().runDue()).sent).toBe(1);
    const mail = await smtp.waitForMail(ann.email);
    expect(mail.subject).toBe("Ben added a memory this week");
    expect(mail.text).toContain("- Picnic (20 November 2026)");
  });

  it("stops sending once the digest's one-click link is posted", async () => {
    const [last] = mailsTo(ann).slice(-1);
    const oneClick = new URL(headerOf(last!, "List-Unsubscribe")!.slice(1, -1));
    // As a mail provider posts it: no session, no cookie, a form body.
    const response = await testApp.app.inject({
      method: "POST",
      url: `${oneClick.pathname}${oneClick.search}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ digest: "off" });
    const preferences = await testApp.app.inject({ method: "GET", url: "/api/v1/notifications/email", headers: ann.headers });
    expect(preferences.json()).toEqual({ digest: "off", time_zone: "Pacific/Auckland" });

    await addMemory(ben, "After the unsubscribe");
    travelTo(new Date(nextDue("weekly", "Pacific/Auckland", clock()).getTime() + 60_000));
    await serverProcess().runDue();
    expect(mailsTo(ann)).toHaveLength(7);
  });
});
