import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
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
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    cipher.setAAD(Buffer.from(id));
    const sealed = Buffer.concat([cipher.update(JSON.stringify(message), "utf8"), cipher.final(), cipher.getAuthTag()]);
    return `${prefix}${iv.toString("base64url")}:${sealed.toString("base64url")}`;
  }

  /** The mail, or undefined when `stored` was not sealed by this key for this row. */
  open(id: string, stored: string): MailMessage | undefined {
    if (!stored.startsWith(prefix)) return undefined;
    const [ivText, sealedText] = stored.slice(prefix.length).split(":");
    if (!ivText || !sealedText) return undefined;
    const iv = Buffer.from(ivText, "base64url");
    const sealed = Buffer.from(sealedText, "base64url");
    if (iv.length !== 12 || sealed.length < 16) return undefined;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.key, iv);
      decipher.setAAD(Buffer.from(id));
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      const text = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]).toString("utf8");
      return JSON.parse(text) as MailMessage;
    } catch {
      return undefined;
    }
  }
}
