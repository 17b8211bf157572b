import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from "@fastify/rate-limit";
import { type Kysely, sql } from "kysely";
import type { Database } from "../db/schema";

/** Rows of windows that ended are swept at most this often, by whichever process counts next. */
const sweepEveryMs = 60_000;

/**
 * A store for @fastify/rate-limit that counts in the database (`rate_limit_counters`), so every
 * process on one PostgreSQL shares each limit (issue #37): a hit is one upsert that starts a new
 * window when the last one ended, atomic on the row, so two processes counting at once both count.
 * The window's end comes from the counting process's clock: processes on one machine agree; across
 * machines, skew moves a window's end by as much.
 */
export function databaseRateLimitStore(db: Kysely<Database>, now: () => number = Date.now): FastifyRateLimitStoreCtor {
  let lastSweep = 0;
  const sweep = (at: number) => {
    if (at - lastSweep < sweepEveryMs) return;
    lastSweep = at;
    // Best effort: a failed sweep leaves rows for the next one.
    void db
      .deleteFrom("rate_limit_counters")
      .where("window_ends_ms", "<=", at)
      .execute()
      .catch(() => undefined);
  };

  const count = async (key: string, timeWindow: number) => {
    const at = now();
    sweep(at);
    const ends = at + timeWindow;
    const row = await db
      .insertInto("rate_limit_counters")
      .values({ key, hits: 1, window_ends_ms: ends })
      .onConflict((conflict) =>
        conflict.column("key").doUpdateSet({
          hits: sql<number>`case when rate_limit_counters.window_ends_ms <= ${at} then 1 else rate_limit_counters.hits + 1 end`,
          window_ends_ms: sql<number>`case when rate_limit_counters.window_ends_ms <= ${at} then ${ends} else rate_limit_counters.window_ends_ms end`,
        }),
      )
      .returning(["hits", "window_ends_ms"])
      .executeTakeFirstOrThrow();
    return { current: Number(row.hits), ttl: Math.max(0, Number(row.window_ends_ms) - at) };
  };

  const peek = async (key: string) => {
    const at = now();
    const row = await db
      .selectFrom("rate_limit_counters")
      .select(["hits", "window_ends_ms"])
      .where("key", "=", key)
      .executeTakeFirst();
    if (!row || Number(row.window_ends_ms) <= at) return { current: 0, ttl: 0 };
    return { current: Number(row.hits), ttl: Number(row.window_ends_ms) - at };
  };

  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    constructor(
      _options?: unknown,
      private readonly prefix = "",
    ) {}

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      count(`${this.prefix}${key}`, timeWindow).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    /** The count as it stands, without a hit: for a route that counts only its failures (`{ increment: false }`). */
    read(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void) {
      peek(`${this.prefix}${key}`).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    /** Each route counts apart, as the plugin's own stores do; it passes the route as `routeInfo`. */
    child(routeOptions: object): FastifyRateLimitStore {
      const route = (routeOptions as { routeInfo?: { method?: string; url?: string } }).routeInfo;
      return new DatabaseRateLimitStore(undefined, `${route?.method ?? ""} ${route?.url ?? ""} `);
    }
  };
}
