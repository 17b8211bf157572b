/**
 * Rows in batches of at most `maxValues` bound values a statement (rows × columns): 10,000 by
 * default, within SQLite's limit (32,766) and PostgreSQL's (65,535), and large enough that a
 * statement's overhead is shared by hundreds of rows. Every row has the first one's columns.
 */
export function* byBoundValues<T extends object>(rows: T[], maxValues = 10_000): Generator<T[]> {
  if (rows.length === 0) return;
  const size = Math.max(1, Math.floor(maxValues / Object.keys(rows[0]!).length));
  for (let start = 0; start < rows.length; start += size) yield rows.slice(start, start + size);
}
