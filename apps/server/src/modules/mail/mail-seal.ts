import { hkdfSync } from "node:crypto";
import { openText, sealText } from "../../lib/sealed-text";
import type { MailMessage } from "./mailer";

const prefix = "mail:v1:";

/**
 * A queued mail as stored (ADR 0077): its one-time links and codes are secrets, so the rendered
 * mail is sealed with AES-256-GCM under a key derived from the server's key outside the database
 * (the one of authenticator secrets, ADR 0041), bound to its row's id. A copy of the database (a
 * backup, a dump) does not give away a pending sign-in link.
 */
export class MailSeal {
  private readonly key: Buffer;

  constructor(serverKey: Buffer) {
    if (serverKey.length !== 32) throw new Error("The mail outbox's key must be 32 bytes");
    this.key = Buffer.from(hkdfSync("sha256", serverKey, Buffer.alloc(0), "memory-box mail outbox v1", 32));
  }

  seal(id: string, message: MailMessage): string {
    return sealText(this.key, prefix, id, JSON.stringify(message));
  }

  /** The mail, or undefined when `stored` was not sealed by this key for this row. */
  open(id: string, stored: string): MailMessage | undefined {
    const text = openText(this.key, prefix, id, stored);
    return text === undefined ? undefined : (JSON.parse(text) as MailMessage);
  }
}
