import { randomUUID } from "node:crypto";
import type { Insertable } from "kysely";
import type { MemoriesTable } from "../src/db/schema";
import { sortKey } from "../src/modules/memories/memories.repository";

/** When the memories of `memoryRow` were written, unless a test says otherwise. */
export const memoryRowCreatedAt = "2026-01-01T00:00:00.000Z";

/**
 * A memory row as the service would store it (its sort key and search text made from its fields),
 * for tests that write rows straight into the database, past the repository, as an import or the
 * benchmarks' seed do; `fields` set any column.
 */
export function memoryRow(fields: Partial<Insertable<MemoriesTable>> = {}): Insertable<MemoriesTable> {
  const id = fields.id ?? randomUUID();
  const createdAt = fields.created_at ?? memoryRowCreatedAt;
  const memoryDate = fields.memory_date ?? null;
  const title = fields.title ?? "A day";
  return {
    id,
    title,
    content: null,
    memory_date: memoryDate,
    user_id: null,
    updated_by: null,
    created_at: createdAt,
    updated_at: createdAt,
    version: 1,
    sort_key: sortKey(memoryDate, createdAt, id),
    search_text: title.toLowerCase(),
    ...fields,
  };
}
