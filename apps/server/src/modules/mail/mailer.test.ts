import { mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { SMTPServer } from "smtp-server";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { extractLink, parseMail, startTestSmtpServer, type TestSmtpServer } from "../../../test/smtp-test-server";
import { createMailer, MailDeliveryError, type MailMessage, type Mailer } from "./mailer";
import { renderEmail } from "./templates";

const from = "Memory Box <no-reply@memory-box.test>";
const password = "secret-pass";
// Long enough that quoted-printable must fold it, with the characters QP escapes.
const link = `https://memories.example.org/auth/v1/verify?token=${"a1b2c3d4".repeat(20)}&type=magiclink&redirect_to=${encodeURIComponent("https://memories.example.org/welcome?from=mail&x=1")}`;

function recordingLogger() {
  const lines = { info: [] as { obj: object; msg: string }[], error: [] as { obj: object; msg: string }[] };
  return {
    lines,
    info: (obj: object, msg: string) => void lines.info.push({ obj, msg }),
    error: (obj: object, msg: string) => void lines.error.push({ obj, msg }),
  };
}

function message(to: string): MailMessage {
  return {
    kind: "magic_link",
    to,
    ...renderEmail("magic_link", { link, code: "123456", email: to, siteName: "Zoë's memories 💛" }),
    link,
  };
}

/** Every way the password could leak into text: as is, or base64 as AUTH LOGIN and PLAIN send it. */
function expectNoPassword(value: unknown) {
  const text = JSON.stringify(value, (_key, item: unknown) =>
    item instanceof Error ? { ...item, message: item.message } : item,
  );
  for (const form of [
    password,
    Buffer.from(password).toString("base64"),
    Buffer.from(`\0memory-user\0${password}`).toString("base64"),
  ]) {
    expect(text).not.toContain(form);
  }
}

async function sendError(mailer: Mailer, mail: MailMessage): Promise<MailDeliveryError> {
  const error: unknown = await mailer.send(mail).then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(MailDeliveryError);
  expect(error).toMatchObject({ statusCode: 502, code: "email_send_failed", message: "Error sending email" });
  return error as MailDeliveryError;
}

describe("SMTP mailer", () => {
  let smtp: TestSmtpServer;
  const mailers: Mailer[] = [];
  const mailerFor = (smtpUrl: string, logger = recordingLogger()) => {
    const mailer = createMailer({ smtpUrl, from, dataDir: os.tmpdir(), logger });
    mailers.push(mailer);
    return mailer;
  };

  beforeAll(async () => {
    smtp = await startTestSmtpServer();
  });
  afterEach(async () => {
    await Promise.all(mailers.splice(0).map((mailer) => mailer.close()));
  });
  afterAll(async () => {
    await smtp.close();
  });

  it("delivers a multipart mail whose parts, UTF-8 subject and long link arrive intact", async () => {
    const logger = recordingLogger();
    const sent = message("zoe@example.org");
    await mailerFor(smtp.url, logger).send(sent);

    const mail = await smtp.waitForMail("zoe@example.org");
    expect(mail).toMatchObject({
      to: ["zoe@example.org"],
      from: "no-reply@memory-box.test",
      subject: "Your Zoë's memories 💛 sign-in link",
      text: sent.text,
      html: sent.html,
    });
    expect(mail.raw).toMatch(/^From: Memory Box <no-reply@memory-box\.test>\r$/m);
    expect(mail.raw).toMatch(/multipart\/alternative/);
    // The link is folded by soft line breaks and its '=' escaped: it must come back whole.
    expect(mail.raw).toMatch(/Content-Transfer-Encoding: quoted-printable/i);
    expect(mail.raw).not.toContain(link);
    expect(extractLink(mail.text)).toBe(link);
    // Without the address: the log is no place for members' addresses.
    expect(logger.lines.info).toEqual([{ obj: { kind: "magic_link", subject: sent.subject }, msg: "email sent" }]);
  });

  it("lets a test wait for a mail still to come, and hands each mail out once", async () => {
    const mailer = mailerFor(smtp.url);
    const waiting = smtp.waitForMail("Later@Example.org", { subject: /sign-in/ });
    await mailer.send(message("later@example.org"));
    const first = await waiting;
    await mailer.send(message("later@example.org"));
    const second = await smtp.waitForMail("later@example.org");
    expect(second).not.toBe(first);
    await expect(smtp.waitForMail("later@example.org", { timeoutMs: 50 })).rejects.toThrow(/No mail to later@example.org/);
  });

  it("fails with MailDeliveryError when the server rejects the mail, without leaking the password", async () => {
    const logger = recordingLogger();
    const mailer = mailerFor(smtp.url.replace("smtp://", `smtp://memory-user:${password}@`), logger);
    smtp.rejectNext();

    const error = await sendError(mailer, message("rejected@example.org"));
    expect(logger.lines.error).toHaveLength(1);
    expect(logger.lines.error[0]).toMatchObject({
      msg: "email could not be sent",
      obj: { kind: "magic_link", err: { responseCode: 550 } },
    });
    expect(JSON.stringify(logger.lines.error)).not.toContain("rejected@example.org");
    // Refused for good: the outbox does not try it again.
    expect(error).toMatchObject({ reason: "smtp_550", permanent: true });
    expectNoPassword({ message: error.message, log: logger.lines.error });
    expect(smtp.messages.map((mail) => mail.to)).not.toContainEqual(["rejected@example.org"]);

    // Only the next delivery fails.
    await mailer.send(message("accepted@example.org"));
    await expect(smtp.waitForMail("accepted@example.org")).resolves.toBeDefined();
  });

  it("redacts the password from the log when the server echoes it in its reply", async () => {
    const echoing = new SMTPServer({
      disabledCommands: ["STARTTLS"],
      allowInsecureAuth: true,
      logger: false,
      onAuth: (auth, _session, callback) => callback(new Error(`No such login ${auth.username}:${auth.password}`)),
    });
    await new Promise<void>((resolve) => echoing.listen(0, "127.0.0.1", () => resolve()));
    try {
      const { port } = echoing.server.address() as AddressInfo;
      const logger = recordingLogger();
      await sendError(mailerFor(`smtp://memory-user:${password}@127.0.0.1:${port}`, logger), message("zoe@example.org"));
      expect(logger.lines.error[0]).toMatchObject({
        obj: { err: { code: "EAUTH", message: expect.stringContaining("[redacted]") as unknown } },
      });
      expectNoPassword(logger.lines.error);
    } finally {
      await Promise.all(mailers.splice(0).map((mailer) => mailer.close()));
      await new Promise<void>((resolve) => echoing.close(() => resolve()));
    }
  });

  it("fails fast when nothing listens", { timeout: 20_000 }, async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));

    const started = Date.now();
    const error = await sendError(mailerFor(`smtp://memory-user:${password}@127.0.0.1:${port}`), message("zoe@example.org"));
    expect(Date.now() - started).toBeLessThan(15_000);
    // The server may come back: the outbox tries again later.
    expect(error.permanent).toBe(false);
  });
});

describe("outbox mailer", () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), "memory-box-mail-"));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("writes each mail as one .eml file and logs its link", async () => {
    const logger = recordingLogger();
    const mailer = createMailer({ smtpUrl: undefined, from, dataDir, logger });
    const sent = message("zoe@example.org");
    await mailer.send(sent);
    await mailer.close();

    const outbox = path.join(dataDir, "outbox");
    const names = await readdir(outbox);
    expect(names).toEqual([expect.stringMatching(/^\d{8}T\d{6}\.\d{3}Z-[0-9a-f]{8}\.eml$/)]);
    const file = path.join(outbox, names[0]!);
    const mail = parseMail(await readFile(file, "utf8"));
    expect(mail).toMatchObject({
      to: ["zoe@example.org"],
      from: "no-reply@memory-box.test",
      subject: sent.subject,
      text: sent.text,
      html: sent.html,
    });
    expect(mail.raw).toMatch(/^MIME-Version: 1\.0\r$/m);
    expect(extractLink(mail.text)).toBe(link);
    if (process.platform !== "win32") expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(logger.lines.info).toEqual([
      { obj: { to: "zoe@example.org", subject: sent.subject, file, link }, msg: "email written to outbox" },
    ]);
  });

  it("fails with MailDeliveryError when the outbox cannot be written", async () => {
    const blocked = path.join(dataDir, "not-a-folder");
    await writeFile(blocked, "");
    const logger = recordingLogger();
    await sendError(createMailer({ smtpUrl: undefined, from, dataDir: blocked, logger }), message("zoe@example.org"));
    expect(logger.lines.error).toHaveLength(1);
    expect(logger.lines.info).toEqual([]);
  });
});

describe("parseMail", () => {
  it("decodes folded, encoded headers and base64 parts nested in multipart/mixed", () => {
    const raw = [
      'From: "Smith, Zoë" <zoe@example.org>',
      "To: =?UTF-8?B?Wm/Dqw==?= <a@example.org>, b@example.org",
      // A character split across two encoded words, and a folded header.
      `Subject: =?UTF-8?Q?Zo=C3?=\r\n =?UTF-8?Q?=AB=27s_memories_?= =?UTF-8?B?${Buffer.from("💛").toString("base64")}?=`,
      'Content-Type: multipart/mixed; boundary="outer"',
      "",
      "--outer",
      "Content-Type: multipart/alternative; boundary=inner",
      "",
      "--inner",
      "Content-Type: text/plain; charset=utf-8",
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from("Hello Zoë\nLine two").toString("base64"),
      "--inner",
      'Content-Type: text/html; charset="iso-8859-1"',
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "<p>Zo=EB =3D=",
      " here</p>",
      "--inner--",
      "--outer",
      "Content-Type: text/plain",
      "",
      "An attachment-like part that must not replace the first text part.",
      "--outer--",
      "",
    ].join("\r\n");
    expect(parseMail(raw)).toEqual({
      from: "zoe@example.org",
      to: ["a@example.org", "b@example.org"],
      subject: "Zoë's memories 💛",
      text: "Hello Zoë\nLine two",
      html: "<p>Zoë = here</p>",
      raw,
    });
  });

  it("reads a single-part 7bit message", () => {
    const mail = parseMail("From: a@example.org\r\nTo: b@example.org\r\nSubject: Hi\r\n\r\nSee https://x.org/a?b=1&c=2 now.\r\n");
    expect(mail).toMatchObject({ subject: "Hi", text: "See https://x.org/a?b=1&c=2 now.", html: "" });
    expect(extractLink(mail.text)).toBe("https://x.org/a?b=1&c=2");
  });
});
