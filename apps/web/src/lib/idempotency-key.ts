/** The header a create carries so that sending it again never creates twice (ADR 0043). */
export const idempotencyKeyHeader = "Idempotency-Key";

/** A new key: one per intended create. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** The header for a create with `key`, or none. */
export function idempotencyHeaders(key: string | undefined): Record<string, string> {
  return key === undefined ? {} : { [idempotencyKeyHeader]: key };
}

/**
 * The key of one form's create (ADR 0043): every retry of the same request, after a dropped
 * connection or a timeout, sends the same key, so the server answers it with the first create's
 * answer rather than creating again. A changed request is another create and takes a new key; so
 * does the next one once this one was answered.
 */
export class CreateAttempt {
  private current: { request: string; key: string } | undefined;

  /** The key to send `request` with. */
  keyFor(request: unknown): string {
    const serialized = JSON.stringify(request);
    if (this.current?.request !== serialized) this.current = { request: serialized, key: newIdempotencyKey() };
    return this.current.key;
  }

  /** The create went through: the next one is a new create. */
  answered(): void {
    this.current = undefined;
  }
}
