import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Transaction } from "kysely";
import type { Transporter } from "nodemailer";
import type { Database } from "../../db/schema";
import { AppError } from "../../errors";

export interface MailMessage {
  /** What the mail is (`magic_link`, `notice.password_changed`, `invitation`, `digest`), for the queue and the log. */
  kind?: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action link in the mail, for the outbox log line. */
  link?: string;
  /** Further header fields (the digest's List-Unsubscribe and List-Unsubscribe-Post, RFC 8058). */
  headers?: Record<string, string>;
  /**
   * The Message-ID (without angle brackets) when the sender fixes one: a digest sent again after
   * a crash keeps its id, so mail systems that drop duplicates drop it.
   */
  messageId?: string;
}

export interface MailSendOptions {
  /**
   * The transaction of the change that causes the mail: the queue writes the mail in it, so the
   * mail exists exactly when the change does. A mailer that sends at once ignores it.
   */
  transaction?: Transaction<Database>;
}

export interface Mailer {
  /** Sends the mail, or (the server's mail outbox, ADR 0077) queues it durably to be sent soon. */
  send(message: MailMessage, options?: MailSendOptions): Promise<void>;
  close(): Promise<void>;
}

export interface MailerLogger {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface MailerOptions {
  /** smtp:// or smtps:// with user:pass; unset writes mails to `{dataDir}/outbox` instead. */
  smtpUrl: string | undefined;
  from: string;
  dataDir: string;
  logger: MailerLogger;
}

/**
 * A mail could not be handed over. The message is fixed: the mail server's reply, which may
 * echo credentials, stays in `cause` and never reaches a client.
 */
export class MailDeliveryError extends AppError {
  /** The failure as a short code for the outbox (`ECONNECTION`, `smtp_550`), never the server's reply. */
  readonly reason: string;
  /** The mail server refused this very mail for good (5xx to its envelope or content): sending it again would not help. */
  readonly permanent: boolean;

  constructor(options?: ErrorOptions) {
    super("email_send_failed", options);
    this.name = "MailDeliveryError";
    const { code, responseCode } = (options?.cause ?? {}) as { code?: unknown; responseCode?: unknown };
    this.reason = typeof responseCode === "number" ? `smtp_${responseCode}` : typeof code === "string" ? code : "unknown";
    this.permanent = typeof responseCode === "number" && responseCode >= 500 && (code === "EENVELOPE" || code === "EMESSAGE");
  }
}

// Fail a request within seconds when the mail server is down, instead of nodemailer's minutes.
const smtpTimeouts = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

/**
 * nodemailer, loaded with the first mail: a process that sends none (most requests, most operator
 * commands) does not pay for loading it.
 */
const loadNodemailer = () => import("nodemailer");

/** `create` run once, at the first call of the returned function; the same transport ever after. */
function lazily<T>(create: () => Promise<T>): () => Promise<T> {
  let created: Promise<T> | undefined;
  return () => (created ??= create());
}

export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl === undefined ? outboxMailer(options) : smtpMailer(options.smtpUrl, options);
}

function smtpMailer(smtpUrl: string, { from, logger }: MailerOptions): Mailer {
  // Options in the URL's query (tls.rejectUnauthorized=false, ...) override these defaults.
  let opened: Transporter | undefined;
  const transport = lazily(async () => {
    opened = (await loadNodemailer()).createTransport({ url: smtpUrl, pool: true, ...smtpTimeouts });
    return opened;
  });
  const secrets = credentialForms(smtpUrl);
  return {
    send: (message) =>
      deliver(message, logger, secrets, false, async () => {
        await (await transport()).sendMail(composed(from, message));
        // Without the address: the log is no place for members' addresses (the outbox names the mail).
        logger.info({ kind: message.kind, subject: message.subject }, "email sent");
      }),
    close: async () => opened?.close(),
  };
}

/**
 * Without SMTP every mail becomes an .eml file an operator can open, and its link goes to the
 * log, so invitations and sign-in links still reach people on an instance without a mail server.
 */
function outboxMailer({ from, dataDir, logger }: MailerOptions): Mailer {
  const outbox = path.join(dataDir, "outbox");
  // The stream transport only composes the MIME message; nothing is sent anywhere.
  const composer = lazily(async () =>
    (await loadNodemailer()).createTransport({ streamTransport: true, buffer: true, newline: "windows" }),
  );
  return {
    send: (message) =>
      deliver(message, logger, [], true, async () => {
        const { message: eml } = await (await composer()).sendMail(composed(from, message));
        // ISO 8601 basic format: sorts by time and has no colons, which Windows forbids in names.
        const name = `${new Date().toISOString().replace(/[-:]/g, "")}-${randomBytes(4).toString("hex")}.eml`;
        const file = path.join(outbox, name);
        const temp = path.join(outbox, `.${name}.tmp`);
        // The mails hold sign-in links: readable by the server's user only.
        await mkdir(outbox, { recursive: true, mode: 0o700 });
        try {
          // Written whole, then renamed: whoever watches the folder never sees half a mail.
          await writeFile(temp, eml, { mode: 0o600, flush: true });
          await rename(temp, file);
        } catch (error) {
          await rm(temp, { force: true });
          throw error;
        }
        logger.info({ to: message.to, subject: message.subject, file, link: message.link }, "email written to outbox");
      }),
    close: async () => undefined,
  };
}

const composed = (from: string, { to, subject, text, html, headers, messageId }: MailMessage) => ({
  from,
  to,
  subject,
  text,
  html,
  ...(headers ? { headers } : {}),
  ...(messageId ? { messageId: `<${messageId}>` } : {}),
});

/**
 * Runs one delivery; any failure is logged without credentials and becomes a MailDeliveryError.
 * The address is logged only where the mail stays on this server (`local`, the outbox folder).
 */
async function deliver(
  message: MailMessage,
  logger: MailerLogger,
  secrets: string[],
  local: boolean,
  attempt: () => Promise<void>,
): Promise<void> {
  try {
    await attempt();
  } catch (error) {
    const named = local ? { to: message.to } : { kind: message.kind };
    logger.error({ ...named, subject: message.subject, err: describeFailure(error, secrets) }, "email could not be sent");
    throw new MailDeliveryError({ cause: error });
  }
}

/**
 * The parts of a nodemailer error an operator needs, with every form the password can take on
 * the wire blanked out: the raw error also carries the server's whole reply, which some servers
 * fill with the AUTH exchange.
 */
function describeFailure(error: unknown, secrets: string[]): object {
  if (!(error instanceof Error)) return { message: redact(String(error), secrets) };
  const { code, command, responseCode } = error as Error & { code?: unknown; command?: unknown; responseCode?: unknown };
  return { type: error.name, message: redact(error.message, secrets), code, command, responseCode };
}

function redact(text: string, secrets: string[]): string {
  return secrets.reduce((result, secret) => result.split(secret).join("[redacted]"), text);
}

/** The SMTP password as written in the URL, decoded, and base64-encoded as AUTH LOGIN and AUTH PLAIN send it. */
function credentialForms(smtpUrl: string): string[] {
  const url = URL.parse(smtpUrl);
  if (!url?.password) return [];
  const password = decodeSafely(url.password);
  return [...new Set([url.password, password, base64(password), base64(`\0${decodeSafely(url.username)}\0${password}`)])];
}

// As nodemailer does: a stray % in the URL is taken literally rather than failing.
function decodeSafely(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const base64 = (value: string) => Buffer.from(value, "utf8").toString("base64");
