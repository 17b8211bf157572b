import { createHmac, hkdfSync, randomBytes } from "node:crypto";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { openText, sealText } from "../../../lib/sealed-text";
import type { FactorsRepository } from "./factors.repository";

/** The key file's name in DATA_DIR, beside the SQLite database, never in it (ADR 0041). */
export const factorSecretsKeyFile = "factor-secrets.key";
const prefix = "enc:v1:";

/**
 * Authenticator (TOTP) secrets as stored: AES-256-GCM under a key that is not in the database
 * (ADR 0041), bound to their factor's id, so a copy of the database (a backup, a dump) does not
 * give away the codes, and a sealed secret moved to another factor's row does not open.
 * Stored as `enc:v1:<iv>:<ciphertext and tag>`, base64url.
 */
export class FactorSecrets {
  /** The key of recovery codes' hashes (ADR 0042), derived from this one for that use alone. */
  private readonly recoveryKey: Buffer;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error("The factor secrets key must be 32 bytes");
    this.recoveryKey = Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), "memory-box recovery codes v1", 32));
  }

  /**
   * A recovery code as stored (ADR 0042): HMAC-SHA-256 under a key that is not in the database,
   * over the account's id and the code, base64url. A copy of the database gives no way to test
   * guesses offline, and a code's hash does not match for another account.
   */
  hashRecoveryCode(userId: string, code: string): string {
    return createHmac("sha256", this.recoveryKey).update(`${userId}:${code}`).digest("base64url");
  }

  seal(factorId: string, secret: string): string {
    return sealText(this.key, prefix, factorId, secret);
  }

  /** The secret, or undefined when `stored` is not a secret this key sealed for this factor. */
  open(factorId: string, stored: string): string | undefined {
    return isSealed(stored) ? openText(this.key, prefix, factorId, stored) : undefined;
  }

  /**
   * Seals the secrets still stored in the clear (written before ADR 0041), at start-up. Each row
   * is rewritten only if it still holds the text read, so two servers starting at once agree.
   * Answers how many were sealed.
   */
  async sealPlaintext(factors: FactorsRepository): Promise<number> {
    let sealed = 0;
    for (const row of await factors.secretsNotSealed(prefix))
      if (await factors.replaceSecret(row.id, row.secret, this.seal(row.id, row.secret))) sealed++;
    return sealed;
  }
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(prefix);
}

/**
 * The key: `AUTH_FACTOR_SECRETS_KEY` when set; otherwise the key file in DATA_DIR, created with a
 * random key (mode 0600) at the first start. The key is written whole to a file of this process's
 * own, then linked to the key file's name only if no other process got there first: a process
 * starting at the same moment never reads a key file still being written, and both use one key.
 */
export async function loadFactorSecretsKey(configured: Buffer | undefined, dataDir: string): Promise<Buffer> {
  if (configured) return configured;
  const file = path.join(dataDir, factorSecretsKeyFile);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const draft = `${file}.${process.pid}.${randomBytes(6).toString("hex")}`;
  try {
    await writeFile(draft, `${randomBytes(32).toString("base64")}\n`, { mode: 0o600, flag: "wx", flush: true });
    await link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await rm(draft, { force: true });
  }
  const key = Buffer.from((await readFile(file, "utf8")).trim(), "base64");
  if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key (base64); restore it from a backup`);
  return key;
}
