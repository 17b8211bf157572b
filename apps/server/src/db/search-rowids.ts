/**
 * SQLite's full-text index (`memories_search`, FTS5) files each memory under a rowid of its own
 * that carries the memory's date: the day as YYYYMMDD (0 undated) times 2^36, plus the memory's
 * rowid. FTS5 walks its matches in rowid order, so the newest day's matches come first and a
 * page, a count or a month's count is read from the index alone, without reading every matching
 * memory to learn where it stands in the list (issue #37, ADR 0079). Within a day the list orders
 * by creation time, which the rowid does not carry: readers complete the last day they read and
 * sort by `sort_key`. Rowids past 2^53 are not exact in JavaScript: SQL splits them, and bounds
 * are bound as bigint.
 */
const dayFactor = 2 ** 36;

/**
 * The index rowid of a memory row, as SQL over that row's `memory_date` and `rowid` (`new`, `old`,
 * or the table's name). The triggers and the readers use this one expression.
 */
export function searchRowidSql(row: string): string {
  return `(coalesce(cast(replace(${row}.memory_date, '-', '') as integer), 0) * ${dayFactor} + ${row}.rowid)`;
}

/** SQL over an index rowid: the memory's own rowid. */
export function memoryRowidSql(searchRowid: string): string {
  return `(${searchRowid} % ${dayFactor})`;
}

/** SQL over an index rowid: its day as YYYYMMDD (0 undated). */
export function searchDaySql(searchRowid: string): string {
  return `(${searchRowid} / ${dayFactor})`;
}

/** The first index rowid of a day given as YYYYMMDD (0 undated). */
export function firstSearchRowidOf(day: number): bigint {
  return BigInt(day) * BigInt(dayFactor);
}

/** A sort key's (or date's) day as YYYYMMDD; 0 for undated ("0000-00-00"). */
export function dayOf(sortKeyOrDate: string): number {
  return Number(sortKeyOrDate.slice(0, 10).replaceAll("-", ""));
}
