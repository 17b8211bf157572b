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
