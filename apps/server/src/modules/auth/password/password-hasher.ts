import { hash, verify } from "@node-rs/argon2";
import pLimit, { type LimitFunction } from "p-limit";

/** `Algorithm.Argon2id` of @node-rs/argon2, whose const enum cannot be imported under isolatedModules. */
const argon2id = 2;

/**
 * argon2id at the OWASP minimum (19 MiB, 2 passes, 1 lane). At most two hashes run at once, so a
 * burst of sign-ins queues instead of exhausting memory and the thread pool on a small machine.
 */
export class PasswordHasher {
  static readonly options = { algorithm: argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
  private readonly limit: LimitFunction;

  constructor(maxConcurrent = 2) {
    this.limit = pLimit(maxConcurrent);
  }

  hash(password: string): Promise<string> {
    return this.limit(() => hash(password, PasswordHasher.options));
  }

  /** Constant-time comparison inside argon2; false for a malformed stored hash. */
  verify(storedHash: string, password: string): Promise<boolean> {
    return this.limit(() => verify(storedHash, password).catch(() => false));
  }

  /**
   * Spends the same time as a real check, so an unknown e-mail cannot be told from a wrong
   * password by timing.
   */
  async verifyDummy(password: string): Promise<false> {
    await this.verify(dummyHash, password);
    return false;
  }
}

/** argon2id hash of a random string, with the same parameters as real hashes. */
const dummyHash = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$rLG3h7WIvLaPFRmzgjMXLgqp+pop8KruaufH0g0yF0g";
