import { type RawBuilder, sql } from "kysely";

/**
 * The SET of a count of wrong codes in a window, for any table with `failed_codes` and
 * `failed_codes_since` (a factor's codes, an account's recovery codes): one more, or counted from 1
 * again when the count began at or before `windowStart`. One UPDATE, so two wrong codes at once both count.
 */
export function countOneMoreFailedCode(
  now: string,
  windowStart: string,
): { failed_codes: RawBuilder<number>; failed_codes_since: RawBuilder<string> } {
  const stale = sql`failed_codes_since is null or failed_codes_since <= ${windowStart}`;
  return {
    failed_codes: sql<number>`case when ${stale} then 1 else failed_codes + 1 end`,
    failed_codes_since: sql<string>`case when ${stale} then ${now} else failed_codes_since end`,
  };
}

/** A row counting wrong codes (a factor, an account's recovery codes). */
export interface WrongCodeCount {
  failed_codes: number;
  failed_codes_since: string | null;
}

/** Whether `max` wrong codes were counted in the window that began at `windowStart`. */
export function lockedByWrongCodes(row: WrongCodeCount, max: number, windowStart: Date): boolean {
  return row.failed_codes >= max && row.failed_codes_since !== null && Date.parse(row.failed_codes_since) > windowStart.getTime();
}

/** Whole minutes (at least 1) until a lock's window has passed: the count began after `windowStart`. */
export function minutesUntilUnlocked(row: WrongCodeCount, windowStart: Date): number {
  return Math.max(1, Math.ceil((Date.parse(row.failed_codes_since!) - windowStart.getTime()) / 60_000));
}
