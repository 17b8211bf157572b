import { type Expression, expressionBuilder, type Kysely, type SqlBool, sql, type Transaction } from "kysely";
import type { Engine } from "../../db/database";
import type { Database, MemoryRow, PhotoRow } from "../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

export interface MemoryRecord extends MemoryRow {
  display_name: string | null;
  tags: string[];
  photos: PhotoRow[];
}

export interface MemoryFields {
  title: string;
  content: string | null;
  memory_date: string | null;
  tags: string[];
}

export interface ListFilter {
  /** Case-insensitive substring of title, description or any tag. */
  q?: string | undefined;
  /** Exact tag, ignoring case. */
  tag?: string | undefined;
}

/** Shorter searches cannot use the trigram index (it needs three characters) and scan instead. */
const trigramLength = 3;

/**
 * Memories with their tags and photos. Every read is a fixed number of queries whatever the
 * page size: the page, then the tags and the photos of all its memories at once.
 */
export class MemoriesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async findById(id: string, executor: Executor = this.db): Promise<MemoryRecord | undefined> {
    const row = await this.selectWithAuthor(executor).where("memories.id", "=", id).executeTakeFirst();
    if (!row) return undefined;
    const [withDetails] = await this.withDetails([row], executor);
    return withDetails;
  }

  /** One page in listing order, starting after `afterSortKey`; one extra row tells whether more follow. */
  async page(filter: ListFilter, afterSortKey: string | undefined, limit: number): Promise<{ records: MemoryRecord[]; hasMore: boolean }> {
    let query = this.selectWithAuthor(this.db);
    const condition = this.filterCondition(filter);
    if (condition) query = query.where(condition);
    if (afterSortKey !== undefined) query = query.where("memories.sort_key", "<", afterSortKey);
    const rows = await query.orderBy("memories.sort_key", "desc").limit(limit + 1).execute();
    const hasMore = rows.length > limit;
    return { records: await this.withDetails(rows.slice(0, limit), this.db), hasMore };
  }

  /** How many memories match the filter, and how many there are in all. */
  async counts(filter: ListFilter): Promise<{ matched: number; total: number }> {
    const count = this.db.selectFrom("memories").select((eb) => eb.fn.countAll<number>().as("count"));
    const condition = this.filterCondition(filter);
    const [all, matched] = await Promise.all([
      count.executeTakeFirstOrThrow(),
      condition ? count.where(condition).executeTakeFirstOrThrow() : undefined,
    ]);
    return { total: Number(all.count), matched: Number((matched ?? all).count) };
  }

  /** Every tag with the number of memories carrying it, most used first. */
  async tagCounts(): Promise<{ tag: string; count: number }[]> {
    const rows = await this.db
      .selectFrom("memory_tags")
      .select((eb) => [eb.fn.min("tag").as("tag"), eb.fn.countAll<number>().as("count")])
      .groupBy("tag_key")
      .orderBy("count", "desc")
      .orderBy("tag_key")
      .execute();
    return rows.map((row) => ({ tag: row.tag, count: Number(row.count) }));
  }

  async insert(memory: { id: string; userId: string; createdAt: string } & MemoryFields, executor: Executor): Promise<void> {
    await executor
      .insertInto("memories")
      .values({
        id: memory.id,
        title: memory.title,
        content: memory.content,
        memory_date: memory.memory_date,
        user_id: memory.userId,
        updated_by: memory.userId,
        created_at: memory.createdAt,
        updated_at: memory.createdAt,
        version: 1,
        sort_key: sortKey(memory.memory_date, memory.createdAt, memory.id),
        search_text: searchText(memory),
      })
      .execute();
    await this.replaceTags(memory.id, memory.tags, executor);
  }

  /**
   * Applies an edit if the memory is still at `expectedVersion` (when given). Returns false when
   * the memory is gone or was changed in the meantime.
   */
  async update(current: MemoryRow, fields: MemoryFields, editor: { userId: string; at: string; expectedVersion?: number | undefined }, executor: Executor): Promise<boolean> {
    let query = executor
      .updateTable("memories")
      .set({
        title: fields.title,
        content: fields.content,
        memory_date: fields.memory_date,
        updated_by: editor.userId,
        updated_at: editor.at,
        version: sql<number>`version + 1`,
        sort_key: sortKey(fields.memory_date, current.created_at, current.id),
        search_text: searchText(fields),
      })
      .where("id", "=", current.id);
    if (editor.expectedVersion !== undefined) query = query.where("version", "=", editor.expectedVersion);
    const result = await query.executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await this.replaceTags(current.id, fields.tags, executor);
    return true;
  }

  async delete(id: string, executor: Executor): Promise<boolean> {
    const result = await executor.deleteFrom("memories").where("id", "=", id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  private async replaceTags(memoryId: string, tags: string[], executor: Executor): Promise<void> {
    await executor.deleteFrom("memory_tags").where("memory_id", "=", memoryId).execute();
    if (tags.length === 0) return;
    await executor
      .insertInto("memory_tags")
      .values(tags.map((tag, position) => ({ memory_id: memoryId, position, tag, tag_key: tag.toLowerCase() })))
      .execute();
  }

  private selectWithAuthor(executor: Executor) {
    return executor.selectFrom("memories").leftJoin("profiles", "profiles.user_id", "memories.user_id").selectAll("memories").select("profiles.display_name");
  }

  /** The search and tag filter as one condition on `memories`, shared by the page and the count. */
  private filterCondition(filter: ListFilter): Expression<SqlBool> | undefined {
    const eb = expressionBuilder<Database, "memories">();
    const conditions: Expression<SqlBool>[] = [];
    const tag = filter.tag?.trim().toLowerCase();
    if (tag) {
      conditions.push(eb.exists(eb.selectFrom("memory_tags").select(sql`1`.as("one")).whereRef("memory_tags.memory_id", "=", "memories.id").where("memory_tags.tag_key", "=", tag)));
    }
    const q = filter.q?.trim().toLowerCase();
    if (q) {
      if (this.engine === "sqlite" && [...q].length >= trigramLength) {
        // FTS5 trigram: a quoted phrase matches as a substring, served by the index.
        const phrase = `"${q.replaceAll('"', '""')}"`;
        conditions.push(sql<SqlBool>`memories.rowid in (select rowid from memories_search where memories_search match ${phrase})`);
      } else {
        // PostgreSQL's pg_trgm GIN index serves LIKE; on SQLite short terms scan.
        conditions.push(sql<SqlBool>`memories.search_text like ${`%${escapeLike(q)}%`} escape '\\'`);
      }
    }
    return conditions.length > 0 ? eb.and(conditions) : undefined;
  }

  private async withDetails(rows: (MemoryRow & { display_name: string | null })[], executor: Executor): Promise<MemoryRecord[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [tagRows, photoRows] = await Promise.all([
      executor.selectFrom("memory_tags").select(["memory_id", "tag"]).where("memory_id", "in", ids).orderBy("memory_id").orderBy("position").execute(),
      executor.selectFrom("photos").selectAll().where("memory_id", "in", ids).orderBy("memory_id").orderBy("position").execute(),
    ]);
    const tagsOf = groupBy(tagRows, (row) => row.memory_id);
    const photosOf = groupBy(photoRows, (row) => row.memory_id ?? "");
    return rows.map((row) => ({ ...row, tags: (tagsOf.get(row.id) ?? []).map((tag) => tag.tag), photos: photosOf.get(row.id) ?? [] }));
  }
}

/** Newest date first, undated last ("0000-00-00" sorts lowest), then newest created, then id. */
export function sortKey(memoryDate: string | null, createdAt: string, id: string): string {
  return `${memoryDate ?? "0000-00-00"}|${createdAt}|${id}`;
}

function searchText(fields: { title: string; content: string | null; tags: string[] }): string {
  return [fields.title, fields.content ?? "", ...fields.tags].join("\n").toLowerCase();
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (character) => `\\${character}`);
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(key(row));
    if (group) group.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}
