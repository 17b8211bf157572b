import { randomBytes } from "node:crypto";
import { hash, verify } from "@node-rs/argon2";
import pLimit, { type LimitFunction } from "p-limit";

/** `Algorithm.Argon2id` of @node-rs/argon2, whose const enum cannot be imported under isolatedModules. */
const argon2id = 2;

/** argon2id's memory (KiB) and passes. */
export interface PasswordHashCost {
  memoryCost: number;
  timeCost: number;
}

/**
 * argon2id at the OWASP minimum (19 MiB, 2 passes, 1 lane). At most two hashes run at once, so a
 * burst of sign-ins queues instead of exhausting memory and the thread pool on a small machine.
 */
export class PasswordHasher {
  static readonly owaspMinimum: PasswordHashCost = { memoryCost: 19_456, timeCost: 2 };
  private readonly limit: LimitFunction;
  private readonly options: { algorithm: typeof argon2id; parallelism: 1 } & PasswordHashCost;
  private dummy: Promise<string> | undefined;

  /**
   * `cost` is the OWASP minimum in the product; the test suites, which sign in thousands of times,
   * hash at a few KiB (`createTestApp`), except the tests of the hashing itself.
   */
  constructor(options: { maxConcurrent?: number; cost?: PasswordHashCost } = {}) {
    this.limit = pLimit(options.maxConcurrent ?? 2);
    this.options = { algorithm: argon2id, parallelism: 1, ...(options.cost ?? PasswordHasher.owaspMinimum) };
  }

  hash(password: string): Promise<string> {
    return this.limit(() => hash(password, this.options));
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
    // A hash of a random string with the same parameters as real hashes, made once.
    this.dummy ??= hash(randomBytes(16).toString("base64"), this.options);
    await this.verify(await this.dummy, password);
    return false;
  }
}
