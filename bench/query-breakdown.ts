// Where a list request's database time goes: runs the server's own MemoriesRepository (the
// source, so it never drifts from the server) against the seeded database, one query at a time,
// and times and EXPLAINs every statement it issues. Authentication's queries are not included.
import SQLite from "better-sqlite3";
import { Kysely, type LogEvent, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { Database } from "../apps/server/src/db/schema";
import { type ListFilter, MemoriesRepository } from "../apps/server/src/modules/memories/memories.repository";
import { round } from "./lib";

export type BreakdownTarget = { engine: "sqlite"; file: string } | { engine: "postgres"; url: string };

export interface QueryTiming {
  request: string;
  query: string;
  medianMs: number;
  plan: string;
}

interface Captured {
  sql: string;
  parameters: readonly unknown[];
  ms: number;
}

/** Names a statement of MemoriesRepository.page/countMatched by its shape. */
function label(sql: string): string {
  if (/^select count\(\*\)/i.test(sql)) return "count matched";
  if (/from "memory_tag_counts"/.test(sql)) return "count matched (kept by triggers)";
  if (/from "memory_tags"/.test(sql) && /"memory_id" in/.test(sql)) return "tags of the page";
  if (/from "photos"/.test(sql)) return "photos of the page";
  // PostgreSQL's search by words (ADR 0081).
  if (/from search_words where/.test(sql)) return "words of the dictionary";
  if (/from "memory_months"/.test(sql)) return "months (bands of the listing order)";
  if (/with band as materialized/.test(sql)) return "a band's matches";
  if (/with matches as materialized/.test(sql)) return "every match";
  if (/memories\.id = any\(/.test(sql)) return "page rows by id";
  return "page rows";
}

export async function queryBreakdown(
  target: BreakdownTarget,
  requests: { name: string; filter: ListFilter }[],
  repeats = 5,
): Promise<QueryTiming[]> {
  let captured: Captured[] = [];
  const log = (event: LogEvent) => {
    if (event.level === "query")
      captured.push({ sql: event.query.sql, parameters: event.query.parameters, ms: event.queryDurationMillis });
  };
  const sqlite = target.engine === "sqlite" ? new SQLite(target.file, { readonly: true }) : undefined;
  const pool = target.engine === "postgres" ? new pg.Pool({ connectionString: target.url, max: 1 }) : undefined;
  const dialect = sqlite ? new SqliteDialect({ database: sqlite }) : new PostgresDialect({ pool: pool! });
  const db = new Kysely<Database>({ dialect, log });
  try {
    const timings: QueryTiming[] = [];
    for (const request of requests) {
      const runs: Captured[][] = [];
      for (let i = 0; i <= repeats; i += 1) {
        captured = [];
        const repository = new MemoriesRepository(db, target.engine);
        // One statement at a time (max 1 connection on PostgreSQL), so each is timed alone; the
        // service counts a filter's matches (once per generation), the first page takes the total from the stats.
        await repository.page(request.filter, undefined, 30);
        if (request.filter.q || request.filter.tag) await repository.countMatched(request.filter);
        if (i > 0) runs.push(captured);
      }
      // Keyed by shape: statements run side by side (tags and photos) may log in either order.
      for (const statement of runs[0]!) {
        const query = label(statement.sql);
        const medianMs = median(runs.map((run) => run.find((other) => label(other.sql) === query)?.ms ?? Number.NaN));
        timings.push({ request: request.name, query, medianMs: round(medianMs, 2), plan: await explain(statement) });
      }
    }
    return timings;
  } finally {
    await db.destroy();
  }

  async function explain(statement: Captured): Promise<string> {
    if (sqlite) {
      const rows = sqlite.prepare(`explain query plan ${statement.sql}`).all(...(statement.parameters as unknown[])) as {
        detail: string;
      }[];
      return rows.map((row) => row.detail).join("; ");
    }
    const result = await pool!.query<{ "QUERY PLAN": string }>(
      `explain (costs off) ${statement.sql}`,
      statement.parameters as unknown[],
    );
    return result.rows
      .map((row) => row["QUERY PLAN"].trim().replace(/^->\s*/, ""))
      .filter((line) => /Scan|Join|Sort|Aggregate|Limit|Memoize|Hash/.test(line) && !/^(Sort Key|Hash Cond|Group Key)/.test(line))
      .join("; ");
  }
}

/** A markdown table of the timings. */
export function breakdownTable(timings: QueryTiming[]): string {
  const rows = timings.map((t) => `| ${t.request} | ${t.query} | ${t.medianMs} ms | ${t.plan.replaceAll("|", "\\|")} |`);
  return `| Request | Statement | Median, alone | Plan |\n|---|---|---|---|\n${rows.join("\n")}`;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
