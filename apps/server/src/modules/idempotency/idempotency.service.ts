import { createHash } from "node:crypto";
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema";
import { AppError } from "../../errors";
import type { HeldKey, IdempotencyRepository, StoredAnswer } from "./idempotency.repository";

/** How long a key and its answer are kept: a day, longer than any client retries the same create. */
export const idempotencyKeyLifetimeMs = 24 * 60 * 60 * 1000;

/**
 * A key still unanswered after this long belongs to a request whose process ended before it
 * answered (no request runs this long): a retry takes it over rather than waiting a day.
 */
export const abandonedAfterMs = 2 * 60 * 1000;

/** 1 to 255 printable ASCII characters, no spaces: a UUID, a ULID or any random token fits. */
const keyFormat = /^[\x21-\x7e]{1,255}$/;

export interface IdempotencyServiceDeps {
  keys: IdempotencyRepository;
  now?: () => Date;
}

/** What to do with a keyed create: run it holding the key (and record its answer), or send the first answer again. */
export type Claim = { kind: "run"; held: HeldKey } | { kind: "replay"; answer: StoredAnswer };

/**
 * Creates that may be sent again (ADR 0043). A member's `Idempotency-Key` is claimed before the
 * create runs; its answer is kept a day; a retry with the same key and request gets that answer
 * back. The same key with another request is refused (`422 idempotency_key_reused`), and so is a
 * retry while the first is still being answered (`409 idempotency_key_in_use`). Keys are the
 * member's own: another member's same key is another row.
 */
export class IdempotencyService {
  constructor(private readonly deps: IdempotencyServiceDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** The header's key, checked: absent is undefined (the create runs as always); malformed is 400. */
  keyOf(header: string | string[] | undefined): string | undefined {
    if (header === undefined) return undefined;
    if (typeof header !== "string" || !keyFormat.test(header)) throw new AppError("idempotency_key_invalid");
    return header;
  }

  /** The request a key stands for: its method, path and (validated) body. */
  fingerprint(method: string, path: string, body: unknown): string {
    return createHash("sha256")
      .update(`${method} ${path}\n${JSON.stringify(body ?? null)}`)
      .digest("base64url");
  }

  async claim(userId: string, key: string, fingerprint: string): Promise<Claim> {
    const now = this.now();
    const at = now.toISOString();
    const expiresAt = new Date(now.getTime() + idempotencyKeyLifetimeMs).toISOString();
    // Twice at most: a key released between our insert and our read is free again.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      if (await this.deps.keys.claim(userId, key, fingerprint, at, expiresAt)) return run(userId, key, at);
      const row = await this.deps.keys.find(userId, key);
      if (!row) continue;
      if (row.fingerprint !== fingerprint) throw new AppError("idempotency_key_reused");
      if (row.response_status !== null) {
        return {
          kind: "replay",
          answer: {
            status: row.response_status,
            headers: JSON.parse(row.response_headers ?? "{}") as Record<string, string>,
            body: row.response_body ?? "",
          },
        };
      }
      const abandonedBefore = new Date(now.getTime() - abandonedAfterMs).toISOString();
      if (await this.deps.keys.takeOver(userId, key, fingerprint, abandonedBefore, at)) return run(userId, key, at);
      throw new AppError("idempotency_key_in_use");
    }
    throw new AppError("idempotency_key_in_use");
  }

  /**
   * Records the create's answer inside the create's own transaction, before its commit: a create
   * that commits has its answer kept, one that rolls back leaves the key unanswered (and freed by
   * `release`). A key no longer held (a retry took it over after `abandonedAfterMs`) is refused
   * with `409 idempotency_key_in_use`, which rolls this create back: the key answers for one create.
   */
  async answerWithin(trx: Transaction<Database>, held: HeldKey, answer: StoredAnswer): Promise<void> {
    if (!(await this.deps.keys.answer(held, answer, trx))) throw new AppError("idempotency_key_in_use");
  }

  /**
   * Records a success that a route answered without recording it in its create's transaction: a
   * second write after the commit, which a lost connection can miss (see `answerWithin`).
   */
  async answerAfter(held: HeldKey, answer: StoredAnswer): Promise<void> {
    await this.deps.keys.answer(held, answer);
  }

  /**
   * The create ended without an answer to keep (refused, or failed: its transaction rolled back,
   * a deadlock or serialization failure included): the key is free again, so the retry runs again.
   * A key answered meanwhile is kept: its create committed although its request failed.
   */
  release(held: HeldKey): Promise<void> {
    return this.deps.keys.release(held);
  }
}

function run(userId: string, key: string, claimedAt: string): Claim {
  return { kind: "run", held: { userId, key, claimedAt } };
}
