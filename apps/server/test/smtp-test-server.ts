import type { AddressInfo } from "node:net";
import { buffer } from "node:stream/consumers";
import { SMTPServer } from "smtp-server";

/** A mail as a test sees it: addresses, decoded subject and bodies, and the message as received. */
export interface CapturedMail {
  /** Bare recipient addresses: the SMTP envelope's when captured, the To and Cc headers' when parsed. */
  to: string[];
  /** The bare sender address: the envelope's when captured, the From header's when parsed. */
  from: string;
  subject: string;
  text: string;
  html: string;
  raw: string;
}

export interface TestSmtpServer {
  /** smtp://127.0.0.1:PORT; accepts any credentials, so user:pass may be added. */
  url: string;
  /** Every accepted mail, oldest first. */
  messages: CapturedMail[];
  /**
   * The oldest mail to `to` (and matching `subject`) that no earlier waitForMail returned, whether
   * it arrived before the call or arrives within the timeout (default 5 s). Each mail is returned
   * once, so a test that triggers two mails to one address and waits twice gets both in turn.
   */
  waitForMail(to: string, options?: { subject?: RegExp; timeoutMs?: number }): Promise<CapturedMail>;
  /** Makes the next `count` deliveries (default 1) fail with a 550 reply after the message is sent. */
  rejectNext(count?: number): void;
  close(): Promise<void>;
}

/** An SMTP server on a free local port that keeps every mail in memory, for one test file. */
export async function startTestSmtpServer(): Promise<TestSmtpServer> {
  const messages: CapturedMail[] = [];
  const claimed = new Set<CapturedMail>();
  const waiters = new Set<() => void>();
  let rejections = 0;

  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    // Plain-text AUTH is fine on loopback; it lets tests pass credentials in the URL.
    allowInsecureAuth: true,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username }),
    logger: false,
    // A client's idle pooled connection must not keep close() waiting for the default 30 s.
    closeTimeout: 500,
    onData: (stream, session, callback) => {
      buffer(stream).then(
        (bytes) => {
          if (rejections > 0) {
            rejections -= 1;
            return callback(Object.assign(new Error("Message rejected by the test server"), { responseCode: 550 }));
          }
          const parsed = parseMail(bytes.toString("utf8"));
          const { mailFrom, rcptTo } = session.envelope;
          messages.push({ ...parsed, from: mailFrom ? mailFrom.address : "", to: rcptTo.map((rcpt) => rcpt.address) });
          callback();
          for (const wake of waiters) wake();
        },
        (error: Error) => callback(error),
      );
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  // search() rather than test(): a /g pattern's lastIndex would make repeated checks skip matches.
  const claim = (to: string, subject: RegExp | undefined) => {
    const mail = messages.find(
      (candidate) =>
        !claimed.has(candidate) &&
        candidate.to.some((address) => address.toLowerCase() === to.toLowerCase()) &&
        (subject === undefined || candidate.subject.search(subject) !== -1),
    );
    if (mail) claimed.add(mail);
    return mail;
  };

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForMail: (to, { subject, timeoutMs = 5000 } = {}) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const mail = claim(to, subject);
          if (!mail) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          const received = messages.map((mail) => `${mail.to.join(", ")}: ${mail.subject}`).join("; ") || "none";
          reject(
            new Error(
              `No mail to ${to}${subject ? ` matching ${String(subject)}` : ""} within ${timeoutMs} ms (received: ${received})`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    rejectNext: (count = 1) => {
      rejections += count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first http(s) URL in a text (in HTML, entities such as &amp; stay as written); throws when there is none. */
export function extractLink(text: string): string {
  const match = /https?:\/\/[^\s<>"']+/.exec(text);
  if (!match) throw new Error(`No link in: ${text}`);
  return match[0];
}

type Headers = Map<string, string>;

/**
 * Just enough of a MIME parser for the mails the server writes: unfolded headers, RFC 2047
 * encoded words, nested multiparts, quoted-printable and base64 bodies in any charset Node knows.
 */
export function parseMail(raw: string): CapturedMail {
  const { headers, body } = splitEntity(raw);
  const parts = { text: "", html: "" };
  collectTextParts(headers, body, parts);
  const addresses = (name: string) => parseAddresses(headers.get(name) ?? "");
  return {
    to: [...addresses("to"), ...addresses("cc")],
    from: addresses("from")[0] ?? "",
    subject: decodeEncodedWords(headers.get("subject") ?? ""),
    ...parts,
    raw,
  };
}

function splitEntity(entity: string): { headers: Headers; body: string } {
  const match = /\r?\n\r?\n/.exec(entity);
  const head = match ? entity.slice(0, match.index) : entity;
  const body = match ? entity.slice(match.index + match[0].length) : "";
  const headers: Headers = new Map();
  // A line starting with whitespace continues the previous header (RFC 5322 folding).
  for (const line of head.replace(/\r?\n(?=[ \t])/g, "").split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

/** The value of a header without its parameters, and one parameter of it. */
function headerValue(value: string | undefined): string {
  return (value ?? "").split(";")[0]!.trim().toLowerCase();
}

function headerParameter(value: string | undefined, name: string): string | undefined {
  const match = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]+))`, "i").exec(value ?? "");
  return match ? (match[1] ?? match[2]) : undefined;
}

/** Keeps the first text/plain and text/html part, descending into every multipart. */
function collectTextParts(headers: Headers, body: string, parts: { text: string; html: string }): void {
  const contentType = headers.get("content-type") ?? "text/plain";
  const type = headerValue(contentType);
  if (type.startsWith("multipart/")) {
    const boundary = headerParameter(contentType, "boundary");
    if (!boundary) return;
    for (const part of splitMultipart(body, boundary)) {
      const entity = splitEntity(part);
      collectTextParts(entity.headers, entity.body, parts);
    }
    return;
  }
  const key = type === "text/plain" ? "text" : type === "text/html" ? "html" : undefined;
  if (key === undefined || parts[key] !== "") return;
  const bytes = decodeTransfer(body, headerValue(headers.get("content-transfer-encoding")));
  // Mail travels with CRLF line breaks; tests compare with the \n-separated text that was sent.
  parts[key] = decodeCharset(bytes, headerParameter(contentType, "charset")).replace(/\r\n/g, "\n");
}

function splitMultipart(body: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const lines = body.split(/\r?\n/);
  const parts: string[] = [];
  let current: string[] | undefined;
  for (const line of lines) {
    const trimmed = line.trimEnd();
    if (trimmed === delimiter || trimmed === `${delimiter}--`) {
      if (current) parts.push(current.join("\r\n"));
      if (trimmed.endsWith("--")) break;
      current = [];
    } else {
      current?.push(line);
    }
  }
  return parts;
}

function decodeTransfer(body: string, encoding: string): Buffer {
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64");
  if (encoding === "quoted-printable") return decodeQuotedPrintable(body.replace(/=\r?\n/g, ""));
  // 7bit, 8bit, binary: the line breaks of the transport are not part of the text's end.
  return Buffer.from(body.replace(/(\r?\n)+$/, ""), "utf8");
}

function decodeQuotedPrintable(text: string): Buffer {
  const chunks: Buffer[] = [];
  let last = 0;
  for (const match of text.matchAll(/=([0-9A-Fa-f]{2})/g)) {
    chunks.push(Buffer.from(text.slice(last, match.index), "utf8"), Buffer.from([parseInt(match[1]!, 16)]));
    last = match.index + match[0].length;
  }
  chunks.push(Buffer.from(text.slice(last), "utf8"));
  return Buffer.concat(chunks);
}

function decodeCharset(bytes: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? "utf-8").decode(bytes);
  } catch {
    return bytes.toString("utf8");
  }
}

/**
 * RFC 2047 =?charset?B|Q?text?= words. Whitespace between adjacent words is dropped, and a run
 * of words is decoded as one byte string, since an encoder may split a character across words.
 */
function decodeEncodedWords(value: string): string {
  const word = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  return value.replace(/=\?[^?]+\?[BbQq]\?[^?]*\?=(?:\s*=\?[^?]+\?[BbQq]\?[^?]*\?=)*/g, (run) => {
    let charset: string | undefined;
    const bytes = [...run.matchAll(word)].map(([, wordCharset, encoding, text]) => {
      charset ??= wordCharset!.split("*")[0];
      return encoding!.toUpperCase() === "B" ? Buffer.from(text!, "base64") : decodeQuotedPrintable(text!.replace(/_/g, " "));
    });
    return decodeCharset(Buffer.concat(bytes), charset);
  });
}

/** The bare addresses of an address-list header, skipping display names (quoted or not). */
function parseAddresses(value: string): string[] {
  const addresses: string[] = [];
  for (const entry of value.match(/(?:"(?:[^"\\]|\\.)*"|<[^>]*>|[^,"<])+/g) ?? []) {
    const angle = /<([^>]*)>\s*$/.exec(entry);
    const address = (angle ? angle[1]! : entry).trim();
    if (address) addresses.push(address);
  }
  return addresses;
}
