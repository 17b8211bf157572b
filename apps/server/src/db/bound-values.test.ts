import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { byBoundValues } from "./bound-values";

describe("byBoundValues", () => {
  const sqlite = new Kysely<never>({ dialect: new SqliteDialect({ database: new SQLite(":memory:") }) });
  // Never connected: the batches depend on the dialect alone.
  const postgres = new Kysely<never>({ dialect: new PostgresDialect({ pool: new pg.Pool({ max: 1 }) }) });
  afterAll(async () => {
    await sqlite.destroy();
    await postgres.destroy();
  });

  const rows = (count: number, columns: number) =>
    Array.from({ length: count }, (_, row) =>
      Object.fromEntries(Array.from({ length: columns }, (_, column) => [`c${column}`, row])),
    );
  const sizes = (batches: Iterable<object[]>) => [...batches].map((batch) => batch.length);

  it("fills PostgreSQL's statements up to 10,000 bound values", () => {
    expect(sizes(byBoundValues(rows(1_200, 20), postgres))).toEqual([500, 500, 200]);
    expect(sizes(byBoundValues(rows(250, 3), postgres))).toEqual([250]);
  });

  it("keeps SQLite's to 100 rows, each a moment's work on the event loop (ADR 0086)", () => {
    expect(sizes(byBoundValues(rows(250, 3), sqlite))).toEqual([100, 100, 50]);
    expect(sizes(byBoundValues(rows(1_200, 200), sqlite))).toEqual(Array.from({ length: 24 }, () => 50));
  });

  it("gives no batch for no rows", () => {
    expect(sizes(byBoundValues([], sqlite))).toEqual([]);
  });
});
