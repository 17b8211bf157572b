import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/**
 * A text sealed with AES-256-GCM under a key kept outside the database, bound to the id of the
 * row it belongs to (the id is authenticated, not stored), so a copy of the database does not give
 * the text away and a sealed text moved to another row does not open. Stored as
 * `<prefix><iv>:<ciphertext and tag>`, base64url; the prefix names what it is and its version.
 */
export function sealText(key: Buffer, prefix: string, boundTo: string, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(boundTo));
  const sealed = Buffer.concat([cipher.update(text, "utf8"), cipher.final(), cipher.getAuthTag()]);
  return `${prefix}${iv.toString("base64url")}:${sealed.toString("base64url")}`;
}

/** The text, or undefined when `stored` is not one this key sealed, with this prefix, for this row. */
export function openText(key: Buffer, prefix: string, boundTo: string, stored: string): string | undefined {
  if (!stored.startsWith(prefix)) return undefined;
  const [ivText, sealedText] = stored.slice(prefix.length).split(":");
  if (!ivText || !sealedText) return undefined;
  const iv = Buffer.from(ivText, "base64url");
  const sealed = Buffer.from(sealedText, "base64url");
  if (iv.length !== 12 || sealed.length < 16) return undefined;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, iv);
    decipher.setAAD(Buffer.from(boundTo));
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]).toString("utf8");
  } catch {
    return undefined;
  }
}
