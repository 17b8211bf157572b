import { type Kysely, sql } from "kysely";
import { memorySearchText } from "../../lib/search-text";

const batchSize = 1000;

interface Row {
  id: string;
  title: string;
  content: string | null;
}

/**
 * `search_text` becomes folded text (no case, no accents: `foldForSearch`), so "cafe" finds
 * "Café" on both engines; every memory's is recomputed here, in batches, from its title,
 * description and tags. The search indexes follow (SQLite's FTS table through its update trigger,
 * PostgreSQL's trigram index by itself).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  let after = "";
  for (;;) {
    const { rows } =
      await sql<Row>`select id, title, content from memories where id > ${after} order by id limit ${batchSize}`.execute(db);
    if (rows.length === 0) return;
    const ids = rows.map((row) => row.id);
    const { rows: tagRows } = await sql<{ memory_id: string; tag: string }>`
      select memory_id, tag from memory_tags where memory_id in (${sql.join(ids)}) order by memory_id, position`.execute(db);
    const tagsOf = new Map<string, string[]>();
    for (const { memory_id, tag } of tagRows) tagsOf.set(memory_id, [...(tagsOf.get(memory_id) ?? []), tag]);
    for (const row of rows) {
      const text = memorySearchText({ title: row.title, content: row.content, tags: tagsOf.get(row.id) ?? [] });
      await sql`update memories set search_text = ${text} where id = ${row.id} and search_text <> ${text}`.execute(db);
    }
    after = rows.at(-1)!.id;
  }
}

/** Folded text is still valid lower-case text: nothing to undo. */
export async function down(): Promise<void> {}
