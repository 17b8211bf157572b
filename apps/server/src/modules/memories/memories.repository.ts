import { MemoryLimits } from "@memory-box/contract";
import { type Expression, type Kysely, type SqlBool, sql, type Transaction } from "kysely";
import type { Engine } from "../../db/database";
import { byBoundValues } from "../../db/bound-values";
import { preparedQuery } from "../../db/prepared-query";
import { dayOf, firstSearchRowidOf, memoryRowidSql, searchDaySql, searchRowidSql } from "../../db/search-rowids";
import type { Database, MemoryRow, PhotoRow } from "../../db/schema";
import { boundsAround, type Bounds, earthRadiusKm, gridCell, parseBounds, parsePoint } from "../../lib/place-grid";
import { containsPattern, foldForSearch, memorySearchText, searchWords, servedByTrigrams } from "../../lib/search-text";
import { PostgresWordSearch } from "./postgres-search";

type Executor = Kysely<Database> | Transaction<Database>;

/** A memory's row with its author's and last editor's display names. */
type MemoryRowWithNames = MemoryRow & { display_name: string | null; editor_display_name: string | null };

/** Columns only queries read: the search text, the place's folded name and map cell. */
type QueryOnlyColumns = "search_text" | "place_key" | "place_x" | "place_y";

/** A list page's row as the database answers it, before its JSON arrays are read. */
type ListedRow = Omit<MemoryRowWithNames, QueryOnlyColumns> & {
  tags_json: unknown;
  photos_json: unknown;
  comment_count: number;
  reactions_json: unknown;
};

export interface MemoryRecord extends MemoryRowWithNames {
  tags: string[];
  photos: PhotoRow[];
}

/** What a list page shows of a photo (photos.service.ts `present`). */
export type ListedPhoto = Pick<
  PhotoRow,
  | "id"
  | "display_key"
  | "preview_key"
  | "thumbnail_key"
  | "width"
  | "height"
  | "taken_at"
  | "placeholder"
  | "kind"
  | "duration_ms"
  | "web_key"
  | "web_content_type"
  | "status"
  | "error_code"
  | "latitude"
  | "longitude"
  | "caption"
>;

/** A memory as a list page shows it: its row (but the search text) with names, tags, photos and counts. */
export interface ListedMemory extends Omit<MemoryRowWithNames, QueryOnlyColumns> {
  tags: string[];
  photos: ListedPhoto[];
  comment_count: number;
  /** Members who reacted, by emoji (in no particular order). */
  reactions: { emoji: string; count: number }[];
}

/** The photo fields a list page reads, in the order they are aggregated. */
const listedPhotoColumns = [
  "id",
  "display_key",
  "preview_key",
  "thumbnail_key",
  "width",
  "height",
  "taken_at",
  "placeholder",
  "kind",
  "duration_ms",
  "web_key",
  "web_content_type",
  "status",
  "error_code",
  "latitude",
  "longitude",
  "caption",
] as const satisfies readonly (keyof ListedPhoto)[];

/**
 * How the memory changed by a write now stands against each kept search: absent when it was
 * deleted; otherwise its sort key and, per search in the order asked, whether it matches.
 */
export type MatchesAfterWrite = { id: string; sortKey: string; matches: boolean[] } | undefined;

export type MemoryLinkRow = Pick<MemoryRow, "id" | "title" | "memory_date">;

/** A memory's place as stored: the country found from the coordinates. */
export interface StoredPlace {
  name: string;
  latitude: number;
  longitude: number;
  country_code: string | null;
}

export interface MemoryFields {
  title: string;
  content: string | null;
  memory_date: string | null;
  tags: string[];
  /** null: no place; undefined (an edit only): the place stays as it is. */
  place?: StoredPlace | null | undefined;
}

export interface ListFilter {
  /** Words that must each occur in the title, description, a tag or the place, ignoring case and accents. */
  q?: string | undefined;
  /** Exact tag(s), ignoring case: a memory must carry every one (issue #34). */
  tag?: string | readonly string[] | undefined;
  /** The place's country, ISO 3166-1 alpha-2. */
  country?: string | undefined;
  /** The place's name, ignoring case and accents. */
  place?: string | undefined;
  /** `west,south,east,north` (the contract's `BoundsText`): the place lies within. */
  within?: string | undefined;
  /** `latitude,longitude` (the contract's `PointText`): the place lies within `nearRadiusKm`. */
  near?: string | undefined;
  /** Kilometres around `near`. */
  nearRadiusKm?: number | undefined;
}

/**
 * Memories with their tags and photos. A list page is one query whatever its size: each memory's
 * tags and photos come with it as JSON arrays (json_group_array on SQLite, json_agg on
 * PostgreSQL), and its comment and reaction counts as a number and an array, each from a range of
 * its own index. One memory read for an edit is three (its row, its tags, its photos).
 */
export class MemoriesRepository {
  /** A list page's memories by id, built once (a named statement on PostgreSQL): the ids as one value. */
  private readonly listedByIds;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {
    this.listedByIds = preparedQuery((ids: string[] | string) =>
      this.selectListed().where(
        engine === "postgres"
          ? sql<SqlBool>`memories.id = any(${ids}::text[])`
          : sql<SqlBool>`memories.id in (select value from json_each(${ids}))`,
      ),
    );
  }

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async findById(id: string, executor: Executor = this.db): Promise<MemoryRecord | undefined> {
    const row = await this.selectWithAuthor(executor).where("memories.id", "=", id).executeTakeFirst();
    if (!row) return undefined;
    const [withDetails] = await this.withDetails([row], executor);
    return withDetails;
  }

  /**
   * Every memory in the list's order (newest date first, undated last), a page at a time, with its
   * author's name, tags and photos (the members' archive, whose pages go by year): after
   * `afterSortKey`, at most `limit`; three queries a page.
   */
  async pageInListOrder(afterSortKey: string | null, limit: number): Promise<MemoryRecord[]> {
    let query = this.selectWithAuthor(this.db).orderBy("memories.sort_key", "desc").limit(limit);
    if (afterSortKey !== null) query = query.where("memories.sort_key", "<", afterSortKey);
    return this.withDetails(await query.execute(), this.db);
  }

  /** One page in listing order, starting after `afterSortKey`; one extra row tells whether more follow. */
  async page(
    filter: ListFilter,
    afterSortKey: string | undefined,
    limit: number,
  ): Promise<{ records: ListedMemory[]; hasMore: boolean }> {
    const byDay = this.searchByDay(filter);
    const words = await this.postgresWordSearch(filter);
    const matches =
      byDay !== undefined ? await this.matchesByDay(byDay, afterSortKey, limit + 1) : await words?.page(afterSortKey, limit + 1);
    if (matches) {
      const records = await this.findManyInOrder(matches.slice(0, limit).map((match) => match.id));
      return { records, hasMore: matches.length > limit };
    }
    const tag = tagKeyOf(filter);
    const search = this.filterCondition(filter);
    let rows: ListedRow[];
    if (tag) {
      // Walks the tag's entries of memory_tags_tag_order_idx (the memory's sort_key copied) in
      // listing order and stops after the page, instead of walking every memory to probe its tags.
      let query = this.db
        .selectFrom("memory_tags")
        .innerJoin("memories", "memories.id", "memory_tags.memory_id")
        .leftJoin("profiles", "profiles.user_id", "memories.user_id")
        .leftJoin("profiles as editors", "editors.user_id", "memories.updated_by")
        .select(this.listedColumns())
        .where("memory_tags.tag_key", "=", tag);
      if (search) query = query.where(search);
      if (afterSortKey !== undefined) query = query.where("memory_tags.sort_key", "<", afterSortKey);
      rows = await query
        .orderBy("memory_tags.sort_key", "desc")
        .limit(limit + 1)
        .execute();
    } else {
      let query = this.selectListed();
      if (search) query = query.where(search);
      if (afterSortKey !== undefined) query = query.where("memories.sort_key", "<", afterSortKey);
      rows = await query
        .orderBy("memories.sort_key", "desc")
        .limit(limit + 1)
        .execute();
    }
    const hasMore = rows.length > limit;
    return { records: rows.slice(0, limit).map((row) => this.listed(row)), hasMore };
  }

  /**
   * The sort keys and ids of the memories a search (and tag) matches, in listing order, at most
   * `max + 1` of them (more than `max`: too many to keep), and how many there are in all. One read
   * of the search: the count comes with the rows (a window over every match, before the limit).
   * A search SQLite's index serves alone is counted from the index first, and lists no rows when
   * there are more than `max`: its pages are read from the index in order (`page`), each cheaper
   * than looking up where thousands of matches stand.
   * On PostgreSQL, a search by words alone: more than `max`, counted by the dictionary of words, come
   * as the first page's worth only (postgres-search.ts).
   */
  async searchMatches(
    filter: ListFilter,
    max: number,
  ): Promise<{ sortKeys: string[]; ids: string[]; matched: number } | undefined> {
    const words = await this.postgresWordSearch(filter);
    if (words) return words.matches(max, MemoryLimits.pageSizeDefault);
    const search = this.filterCondition(filter);
    if (!search) return undefined;
    const byDay = this.searchByDay(filter);
    if (byDay !== undefined) {
      const matched = await this.countByDay(byDay);
      if (matched > max) return { sortKeys: [], ids: [], matched };
    }
    const tag = tagKeyOf(filter);
    const rows = await this.db
      .selectFrom("memories")
      .select(["memories.id", "memories.sort_key", sql<number>`count(*) over ()`.as("matched")])
      .where(search)
      .$if(tag !== undefined, (query) =>
        query.where("memories.id", "in", (eb) =>
          eb.selectFrom("memory_tags").select("memory_tags.memory_id").where("memory_tags.tag_key", "=", tag!),
        ),
      )
      .orderBy("memories.sort_key", "desc")
      .limit(max + 1)
      .execute();
    return {
      sortKeys: rows.map((row) => row.sort_key),
      ids: rows.map((row) => row.id),
      matched: rows.length === 0 ? 0 : Number(rows[0]!.matched),
    };
  }

  /**
   * Memories whose day falls on one of `monthDays` ("MM-DD") in any year, dated before `before`
   * ("YYYY-MM-DD"), newest first, at most `limit`: the candidates of "On this day", found through
   * the index on month and day, then date.
   */
  async byMonthDay(monthDays: string[], before: string, limit: number): Promise<{ id: string; memory_date: string }[]> {
    // The expressions of the index memories_month_day_date, to the letter, so that it is used.
    const monthDay =
      this.engine === "postgres"
        ? sql<number>`(extract(month from memory_date) * 100 + extract(day from memory_date))`
        : sql<number>`(cast(substr(memory_date, 6, 2) as integer) * 100 + cast(substr(memory_date, 9, 2) as integer))`;
    if (monthDays.length === 0) return [];
    // One range of the index per day, newest first and cut at `limit`, then merged: at most
    // `limit` entries a day are read, however many years the collection spans (one IN over the
    // days read every memory of those days, in every year, to sort them).
    const days = monthDays.map(
      (day, index) =>
        sql`select * from (select id, memory_date from memories where ${monthDay} = ${Number(day.replace("-", ""))} and memory_date < ${before} order by memory_date desc, id limit ${limit}) as ${sql.ref(`day_${index}`)}`,
    );
    const { rows } = await sql<{
      id: string;
      memory_date: string;
    }>`${sql.join(days, sql` union all `)} order by memory_date desc, id limit ${limit}`.execute(this.db);
    return rows.map((row) => ({ id: row.id, memory_date: row.memory_date }));
  }

  /** Where a memory stands in the list's order (its primary key's row, no tags or photos). */
  async sortKeyOf(id: string): Promise<string | undefined> {
    const row = await this.db.selectFrom("memories").select("sort_key").where("id", "=", id).executeTakeFirst();
    return row?.sort_key;
  }

  /** The memories just before (newer) and just after (older) `sortKey` in the list's order, through the sort_key index. */
  async neighbours(sortKey: string): Promise<{ previous: MemoryLinkRow | undefined; next: MemoryLinkRow | undefined }> {
    const link = () => this.db.selectFrom("memories").select(["id", "title", "memory_date"]);
    const [previous, next] = await Promise.all([
      link().where("sort_key", ">", sortKey).orderBy("sort_key", "asc").limit(1).executeTakeFirst(),
      link().where("sort_key", "<", sortKey).orderBy("sort_key", "desc").limit(1).executeTakeFirst(),
    ]);
    return { previous, next };
  }

  /** These memories, in this order (ids no longer there are left out). */
  async findManyInOrder(ids: string[], executor: Executor = this.db): Promise<ListedMemory[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.listedByIds(executor, this.engine === "postgres" ? ids : JSON.stringify(ids));
    const position = new Map(ids.map((id, index) => [id, index]));
    rows.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
    return rows.map((row) => this.listed(row));
  }

  /**
   * Inside a write's transaction, after it: the generation it leaves (`memory_stats`), and the
   * written memory against each search (and tag) filter, tested by the database with the same
   * conditions as a search (on SQLite, the full-text index probed at this one memory's rowid).
   */
  async matchesAfterWrite(
    id: string,
    filters: readonly ListFilter[],
    executor: Executor,
  ): Promise<{ generation: number | undefined; memory: MatchesAfterWrite }> {
    const stats = await executor.selectFrom("memory_stats").select("generation").where("id", "=", 1).executeTakeFirst();
    const tests = filters.map((filter) => {
      const tag = tagKeyOf(filter);
      const conditions = [this.filterCondition(filter, "one row") ?? sql<SqlBool>`1 = 1`];
      if (tag !== undefined) {
        conditions.push(
          sql<SqlBool>`exists (select 1 from memory_tags where memory_tags.memory_id = memories.id and memory_tags.tag_key = ${tag})`,
        );
      }
      return sql<SqlBool>`case when ${and(conditions)} then 1 else 0 end`;
    });
    const row = await executor
      .selectFrom("memories")
      .select(["memories.id", "memories.sort_key"])
      .$if(tests.length > 0, (query) =>
        query.select(
          sql<string>`${this.engine === "postgres" ? sql`json_build_array` : sql`json_array`}(${sql.join(tests)})`.as("matches"),
        ),
      )
      .where("memories.id", "=", id)
      .executeTakeFirst();
    const generation = stats === undefined ? undefined : Number(stats.generation);
    if (!row) return { generation, memory: undefined };
    const raw = (row as { matches?: unknown }).matches;
    const flags = (tests.length === 0 ? [] : typeof raw === "string" ? JSON.parse(raw) : raw) as number[];
    return { generation, memory: { id: row.id, sortKey: row.sort_key, matches: flags.map((flag) => Number(flag) === 1) } };
  }

  /**
   * The collection's generation, as a write's first statement: an update that leaves it as it is
   * but takes the row's write lock (and on SQLite the database's) until the commit, so no other
   * write can come between this read and the transaction's own changes. A plain read would not
   * lock on PostgreSQL, and on SQLite would start a read snapshot that another process's commit
   * could make stale before this transaction's first write.
   */
  async generationBeforeWrite(executor: Executor): Promise<number | undefined> {
    const row = await executor
      .updateTable("memory_stats")
      .set({ generation: sql<number>`generation` })
      .where("id", "=", 1)
      .returning("generation")
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.generation);
  }

  /** Every memory; the list takes it from `memory_stats` and counts only if that row were missing (removed by hand). */
  async countAll(): Promise<number> {
    const row = await this.db
      .selectFrom("memories")
      .select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** How many memories match a search and/or tag filter (the whole collection without either). */
  async countMatched(filter: ListFilter): Promise<number> {
    const tag = tagKeyOf(filter);
    const search = this.filterCondition(filter);
    if (!tag && !search) return this.countAll();
    const byDay = this.searchByDay(filter);
    if (byDay !== undefined) return this.countByDay(byDay);
    const words = await this.postgresWordSearch(filter);
    if (words) return words.count();
    if (tag && !search) {
      // One tag and nothing else: the count the triggers keep (memory_tag_counts), however many carry it.
      const kept = await this.db.selectFrom("memory_tag_counts").select("count").where("tag_key", "=", tag).executeTakeFirst();
      return Number(kept?.count ?? 0);
    }
    const row = await (
      search && (!tag || searchWords(filter.q ?? "").length > 0)
        ? // One search over the collection, narrowed to the tag's memories (a tag is on a memory at most once).
          this.db
            .selectFrom("memories")
            .select((eb) => eb.fn.countAll<number>().as("count"))
            .where(search)
            .$if(tag !== undefined, (query) =>
              query.where("memories.id", "in", (eb) =>
                eb.selectFrom("memory_tags").select("memory_tags.memory_id").where("memory_tags.tag_key", "=", tag!),
              ),
            )
        : // The first tag's index entries: one per memory, as (tag_key, sort_key, memory_id) is
          // unique; the other tags and the place filters probed for each (issue #34).
          this.db
            .selectFrom("memory_tags")
            .$if(search !== undefined, (query) =>
              query.innerJoin("memories", "memories.id", "memory_tags.memory_id").where(search!),
            )
            .select((eb) => eb.fn.countAll<number>().as("count"))
            .where("memory_tags.tag_key", "=", tag!)
    ).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /**
   * How many memories a filter matches per month of their sort key (`YYYY-MM`; undated ones are
   * "0000-00"), newest first. Without a filter, from `memory_months`; with one, from the sort_key
   * index (the tag's copy for a tag filter).
   */
  async monthCounts(filter: ListFilter): Promise<{ month: string; count: number }[]> {
    const byDay = this.searchByDay(filter);
    if (byDay !== undefined) return this.monthCountsByDay(byDay);
    const tag = tagKeyOf(filter);
    const search = this.filterCondition(filter);
    // Without a filter, the counts the triggers keep (memory_months): a read of at most one row a
    // month, however many memories there are.
    const rows =
      !tag && !search
        ? await this.db.selectFrom("memory_months").select(["month", "count"]).where("count", ">", 0).execute()
        : tag
          ? await this.db
              .selectFrom("memory_tags")
              .innerJoin("memories", "memories.id", "memory_tags.memory_id")
              .select((eb) => [sql<string>`substr(memory_tags.sort_key, 1, 7)`.as("month"), eb.fn.countAll<number>().as("count")])
              .where("memory_tags.tag_key", "=", tag)
              .$if(search !== undefined, (query) => query.where(search!))
              .groupBy(sql`substr(memory_tags.sort_key, 1, 7)`)
              .execute()
          : await this.db
              .selectFrom("memories")
              .select((eb) => [sql<string>`substr(memories.sort_key, 1, 7)`.as("month"), eb.fn.countAll<number>().as("count")])
              .$if(search !== undefined, (query) => query.where(search!))
              .groupBy(sql`substr(memories.sort_key, 1, 7)`)
              .execute();
    return rows
      .map((row) => ({ month: row.month, count: Number(row.count) }))
      .sort((a, b) => (a.month < b.month ? 1 : a.month > b.month ? -1 : 0));
  }

  /** The memories carrying a tag (by its key, lower case), for a rename to go through. */
  async idsWithTag(tagKey: string, executor: Executor): Promise<string[]> {
    const rows = await executor
      .selectFrom("memory_tags")
      .select("memory_id")
      .where("tag_key", "=", tagKey)
      .orderBy("memory_id")
      .execute();
    return rows.map((row) => row.memory_id);
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

  /** A new memory at version 1; `updatedAt` differs from `createdAt` only for one brought in by an import. */
  async insert(memory: NewMemory, executor: Executor): Promise<void> {
    const row = newMemoryRow(memory);
    await executor.insertInto("memories").values(row).execute();
    await this.replaceTags(memory.id, row.sort_key, memory.tags, executor);
  }

  /**
   * New memories, many rows a statement (an import's hundreds of thousands): on PostgreSQL the
   * counters' statement triggers then run once a batch, not once a memory, which in one
   * transaction would update `memory_stats` a million times (each update a new version of its row
   * that the next must step over).
   */
  async insertMany(memories: NewMemory[], executor: Executor): Promise<void> {
    const rows = memories.map(newMemoryRow);
    for (const batch of byBoundValues(rows, executor)) await executor.insertInto("memories").values(batch).execute();
    const tags = memories.flatMap((memory, m) => tagRows(memory.id, rows[m]!.sort_key, memory.tags));
    for (const batch of byBoundValues(tags, executor)) await executor.insertInto("memory_tags").values(batch).execute();
  }

  /**
   * Applies an edit if the memory is still at `expectedVersion` (when given). Returns false when
   * the memory is gone or was changed in the meantime.
   */
  async update(
    current: MemoryRow,
    fields: MemoryFields,
    editor: { userId: string; at: string; expectedVersion?: number | undefined },
    executor: Executor,
  ): Promise<boolean> {
    const key = sortKey(fields.memory_date, current.created_at, current.id);
    const place = fields.place === undefined ? placeOf(current) : fields.place;
    let query = executor
      .updateTable("memories")
      .set({
        title: fields.title,
        content: fields.content,
        memory_date: fields.memory_date,
        updated_by: editor.userId,
        updated_at: editor.at,
        version: sql<number>`version + 1`,
        sort_key: key,
        search_text: memorySearchText({ ...fields, place }),
        ...placeColumns(place),
      })
      .where("id", "=", current.id);
    if (editor.expectedVersion !== undefined) query = query.where("version", "=", editor.expectedVersion);
    const result = await query.executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    // Rewrites the tag rows with the new sort_key copy (for writes that bypass this repository, a
    // trigger moves the copies when a memory's sort_key changes).
    await this.replaceTags(current.id, key, fields.tags, executor);
    return true;
  }

  /**
   * A change to the memory that is not its form's (its cover, a photo's caption, ADR 0062): a new
   * version by `editor`, the cover set when given. False when the memory is gone or was changed in
   * the meantime (`expectedVersion`).
   */
  async touch(
    id: string,
    editor: { userId: string; at: string; expectedVersion?: number | undefined },
    change: { coverPhotoId?: string | null },
    executor: Executor,
  ): Promise<boolean> {
    let query = executor
      .updateTable("memories")
      .set({
        updated_by: editor.userId,
        updated_at: editor.at,
        version: sql<number>`version + 1`,
        ...(change.coverPhotoId === undefined ? {} : { cover_photo_id: change.coverPhotoId }),
      })
      .where("id", "=", id);
    if (editor.expectedVersion !== undefined) query = query.where("version", "=", editor.expectedVersion);
    const result = await query.executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async delete(id: string, executor: Executor): Promise<boolean> {
    const result = await executor.deleteFrom("memories").where("id", "=", id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** `memorySortKey` is the memory's own `sort_key`, copied into each tag row for the tag filter's index. */
  private async replaceTags(memoryId: string, memorySortKey: string, tags: string[], executor: Executor): Promise<void> {
    await executor.deleteFrom("memory_tags").where("memory_id", "=", memoryId).execute();
    if (tags.length === 0) return;
    await executor
      .insertInto("memory_tags")
      .values(tagRows(memoryId, memorySortKey, tags))
      .execute();
  }

  private selectListed() {
    return this.db
      .selectFrom("memories")
      .leftJoin("profiles", "profiles.user_id", "memories.user_id")
      .leftJoin("profiles as editors", "editors.user_id", "memories.updated_by")
      .select(this.listedColumns());
  }

  private selectWithAuthor(executor: Executor) {
    return executor
      .selectFrom("memories")
      .leftJoin("profiles", "profiles.user_id", "memories.user_id")
      .leftJoin("profiles as editors", "editors.user_id", "memories.updated_by")
      .selectAll("memories")
      .select(["profiles.display_name", "editors.display_name as editor_display_name"]);
  }

  /** The search and the place filters as one condition on `memories`; undefined when there are none. */
  private filterCondition(filter: ListFilter, scope: "collection" | "one row" = "collection"): Expression<SqlBool> | undefined {
    const conditions: Expression<SqlBool>[] = [];
    const search = this.searchCondition(filter, scope);
    if (search) conditions.push(search);
    // Tags past the first (whose index entries the list walks): the memories carrying all of them,
    // found once from their own index entries (a memory with every one has as many distinct keys
    // as there are tags), not probed per memory walked: a correlated
    // probe let SQLite's planner walk each tag's entries for every memory (quadratic).
    const others = tagKeysOf(filter).slice(1);
    if (others.length > 0) {
      conditions.push(
        sql<SqlBool>`memories.id in (select also_tagged.memory_id from memory_tags as also_tagged where also_tagged.tag_key in (${sql.join(others)}) group by also_tagged.memory_id having count(distinct also_tagged.tag_key) = ${others.length})`,
      );
    }
    if (filter.country) conditions.push(sql<SqlBool>`memories.place_country = ${filter.country}`);
    const place = filter.place === undefined ? "" : placeKeyOf(filter.place);
    if (place) conditions.push(sql<SqlBool>`memories.place_key = ${place}`);
    if (filter.within) conditions.push(withinCondition(parseBounds(filter.within)));
    if (filter.near) {
      const point = parsePoint(filter.near);
      const radiusKm = filter.nearRadiusKm ?? 0;
      // The bounds around the circle narrow through the index; the haversine keeps the circle:
      // distance ≤ r exactly when sin²(Δφ/2) + cos φ₀ cos φ sin²(Δλ/2) ≤ sin²(r / 2R).
      conditions.push(withinCondition(boundsAround(point, radiusKm)));
      const limit = Math.sin(radiusKm / (2 * earthRadiusKm)) ** 2;
      const cosine = Math.cos((point.latitude * Math.PI) / 180);
      conditions.push(sql<SqlBool>`(sin(radians(memories.place_latitude - ${point.latitude}) / 2) * sin(radians(memories.place_latitude - ${point.latitude}) / 2)
        + ${cosine} * cos(radians(memories.place_latitude)) * sin(radians(memories.place_longitude - ${point.longitude}) / 2) * sin(radians(memories.place_longitude - ${point.longitude}) / 2)) <= ${limit}`);
    }
    return conditions.length === 0 ? undefined : and(conditions);
  }

  /**
   * The search as a condition on `memories`, shared by the page and the count: every word of the
   * query occurs in the folded `search_text`. PostgreSQL's pg_trgm GIN index serves each LIKE (and
   * their AND); on SQLite the FTS5 trigram table serves the words of three characters or more,
   * as quoted phrases (anything inside quotes is plain text, never query syntax), and shorter
   * words are checked on the rows it finds. `"one row"`: for a query that reads one memory, the
   * index is asked about that memory's rowid only, not for the list of every match.
   */
  private searchCondition(filter: ListFilter, scope: "collection" | "one row" = "collection"): Expression<SqlBool> | undefined {
    const words = searchWords(filter.q ?? "");
    if (words.length === 0) return undefined;
    const like = (word: string) => sql<SqlBool>`memories.search_text like ${containsPattern(word)} escape '\\'`;
    if (this.engine === "postgres") return and(words.map(like));
    const indexed = words.filter(servedByTrigrams);
    const short = words.filter((word) => !servedByTrigrams(word));
    const conditions = short.map(like);
    if (indexed.length > 0) {
      const match = matchExpression(indexed);
      conditions.unshift(
        scope === "collection"
          ? sql<SqlBool>`memories.rowid in (select ${sql.raw(memoryRowidSql("rowid"))} from memories_search where memories_search match ${match})`
          : // The same MATCH, limited by FTS5 to the one memory's index rowid (not the list of every match).
            sql<SqlBool>`exists (select 1 from memories_search where memories_search match ${match} and memories_search.rowid = ${sql.raw(searchRowidSql("memories"))})`,
      );
    }
    return and(conditions);
  }

  /**
   * The FTS5 query when a filter is a search alone whose every word SQLite's index serves (three
   * characters or more): its matches, their count and their months are then read from the index,
   * filed by day (db/search-rowids.ts), without reading each matching memory. Undefined otherwise.
   */
  private searchByDay(filter: ListFilter): string | undefined {
    if (this.engine !== "sqlite" || tagKeysOf(filter).length > 0 || hasPlaceFilter(filter)) return undefined;
    const words = searchWords(filter.q ?? "");
    if (words.length === 0 || !words.every(servedByTrigrams)) return undefined;
    return matchExpression(words);
  }

  private async countByDay(match: string): Promise<number> {
    const { rows } = await sql<{
      count: number;
    }>`select count(*) as count from memories_search where memories_search match ${match}`.execute(this.db);
    return Number(rows[0]?.count ?? 0);
  }

  /**
   * Up to `count` matches of a day-filed search after `afterSortKey`, in listing order. The index
   * gives them newest day first; each read completes the last day it reached (whose memories the
   * list orders by creation time), so everything up to that day is known and sorted exactly.
   */
  private async matchesByDay(
    match: string,
    afterSortKey: string | undefined,
    count: number,
  ): Promise<{ id: string; sort_key: string }[]> {
    const found: { id: string; sort_key: string }[] = [];
    const daySql = sql.raw(searchDaySql("rowid"));
    const memoryRowid = sql.raw(memoryRowidSql("rowid"));
    // Index rowids below this bound are the days not read yet (the cursor's day included).
    let below = afterSortKey === undefined ? undefined : firstSearchRowidOf(dayOf(afterSortKey) + 1);
    for (;;) {
      const { rows } = await sql<{ day: number; memory_rowid: number }>`select ${daySql} as day, ${memoryRowid} as memory_rowid
        from memories_search where memories_search match ${match} ${below === undefined ? sql`` : sql`and rowid < ${below}`}
        order by rowid desc limit ${count + 1}`.execute(this.db);
      if (rows.length === 0) break;
      const lastDay = rows.at(-1)!.day;
      const memoryRowids = new Set(rows.map((row) => row.memory_rowid));
      const exhausted = rows.length <= count;
      if (!exhausted) {
        const { rows: restOfDay } = await sql<{ memory_rowid: number }>`select ${memoryRowid} as memory_rowid
          from memories_search where memories_search match ${match}
          and rowid >= ${firstSearchRowidOf(lastDay)} and rowid < ${firstSearchRowidOf(lastDay + 1)}`.execute(this.db);
        for (const row of restOfDay) memoryRowids.add(row.memory_rowid);
      }
      const { rows: memories } = await sql<{ id: string; sort_key: string }>`select id, sort_key from memories
        where rowid in (select value from json_each(${JSON.stringify([...memoryRowids])}))`.execute(this.db);
      for (const memory of memories) if (afterSortKey === undefined || memory.sort_key < afterSortKey) found.push(memory);
      if (exhausted || found.length >= count) break;
      below = firstSearchRowidOf(lastDay);
    }
    return found.sort((a, b) => (a.sort_key < b.sort_key ? 1 : a.sort_key > b.sort_key ? -1 : 0)).slice(0, count);
  }

  /** A day-filed search's matches per month ("YYYY-MM"; undated "0000-00"), from the index alone. */
  private async monthCountsByDay(match: string): Promise<{ month: string; count: number }[]> {
    const { rows } = await sql<{
      month: number;
      count: number;
    }>`select ${sql.raw(searchDaySql("rowid"))} / 100 as month, count(*) as count
      from memories_search where memories_search match ${match} group by 1 order by 1 desc`.execute(this.db);
    return rows.map((row) => ({
      month: `${String(Math.floor(row.month / 100)).padStart(4, "0")}-${String(row.month % 100).padStart(2, "0")}`,
      count: Number(row.count),
    }));
  }

  /**
   * PostgreSQL, a search by words alone (no tag or place filter) with a word long enough for the
   * dictionary of the memories' words (postgres-search.ts): its reads decide from the dictionary.
   */
  private async postgresWordSearch(filter: ListFilter): Promise<PostgresWordSearch | undefined> {
    if (this.engine !== "postgres") return undefined;
    const words = searchWords(filter.q ?? "");
    if (tagKeysOf(filter).length > 0 || hasPlaceFilter(filter) || words.length === 0) return undefined;
    return PostgresWordSearch.of(this.db, words);
  }

  /** A list page's columns: the memory, its author's and editor's names, its tags and photos as JSON arrays. */
  private listedColumns() {
    const postgres = this.engine === "postgres";
    const photoFields = sql.join(listedPhotoColumns.map((column) => sql`${sql.lit(column)}, photos.${sql.ref(column)}`));
    const tags = postgres
      ? sql<unknown>`coalesce((select json_agg(memory_tags.tag order by memory_tags.position) from memory_tags where memory_tags.memory_id = memories.id), '[]'::json)`
      : sql<unknown>`(select json_group_array(memory_tags.tag order by memory_tags.position) from memory_tags where memory_tags.memory_id = memories.id)`;
    const photos = postgres
      ? sql<unknown>`coalesce((select json_agg(json_build_object(${photoFields}) order by photos.position) from photos where photos.memory_id = memories.id), '[]'::json)`
      : sql<unknown>`(select json_group_array(json_object(${photoFields}) order by photos.position) from photos where photos.memory_id = memories.id)`;
    const commentCount = postgres
      ? sql<number>`(select count(*)::int from comments where comments.memory_id = memories.id)`
      : sql<number>`(select count(*) from comments where comments.memory_id = memories.id)`;
    const reactions = postgres
      ? sql<unknown>`coalesce((select json_agg(json_build_object('emoji', counted.emoji, 'count', counted.count)) from (select emoji, count(*)::int as count from reactions where reactions.memory_id = memories.id group by emoji) as counted), '[]'::json)`
      : sql<unknown>`(select json_group_array(json_object('emoji', counted.emoji, 'count', counted.count)) from (select emoji, count(*) as count from reactions where reactions.memory_id = memories.id group by emoji) as counted)`;
    return [
      "memories.id",
      "memories.title",
      "memories.content",
      "memories.memory_date",
      "memories.user_id",
      "memories.updated_by",
      "memories.created_at",
      "memories.updated_at",
      "memories.version",
      "memories.sort_key",
      "memories.place_name",
      "memories.place_latitude",
      "memories.place_longitude",
      "memories.place_country",
      "memories.cover_photo_id",
      "profiles.display_name",
      "editors.display_name as editor_display_name",
      tags.as("tags_json"),
      photos.as("photos_json"),
      commentCount.as("comment_count"),
      reactions.as("reactions_json"),
    ] as const;
  }

  /** A list row with its JSON arrays read (PostgreSQL's driver parses json; SQLite answers text). */
  private listed(row: ListedRow): ListedMemory {
    const { tags_json, photos_json, reactions_json, ...memory } = row;
    return {
      ...memory,
      tags: readJson<string[]>(tags_json),
      photos: readJson<ListedPhoto[]>(photos_json),
      reactions: readJson<{ emoji: string; count: number }[]>(reactions_json),
    };
  }

  private async withDetails(rows: MemoryRowWithNames[], executor: Executor): Promise<MemoryRecord[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((row) => row.id);
    const [tagRows, photoRows] = await Promise.all([
      executor
        .selectFrom("memory_tags")
        .select(["memory_id", "tag"])
        .where("memory_id", "in", ids)
        .orderBy("memory_id")
        .orderBy("position")
        .execute(),
      executor.selectFrom("photos").selectAll().where("memory_id", "in", ids).orderBy("memory_id").orderBy("position").execute(),
    ]);
    const tagsOf = groupBy(tagRows, (row) => row.memory_id);
    const photosOf = groupBy(photoRows, (row) => row.memory_id ?? "");
    return rows.map((row) => ({
      ...row,
      tags: (tagsOf.get(row.id) ?? []).map((tag) => tag.tag),
      photos: photosOf.get(row.id) ?? [],
    }));
  }
}

/** A JSON column: PostgreSQL's driver parses json, SQLite answers text. */
function readJson<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

/** A memory to insert: its fields, author and dates. */
export type NewMemory = { id: string; userId: string | null; createdAt: string; updatedAt?: string } & MemoryFields;

function newMemoryRow(memory: NewMemory) {
  return {
    id: memory.id,
    title: memory.title,
    content: memory.content,
    memory_date: memory.memory_date,
    user_id: memory.userId,
    updated_by: memory.userId,
    created_at: memory.createdAt,
    updated_at: memory.updatedAt ?? memory.createdAt,
    version: 1,
    sort_key: sortKey(memory.memory_date, memory.createdAt, memory.id),
    search_text: memorySearchText(memory),
    ...placeColumns(memory.place ?? null),
  };
}

/** A memory's tag rows, in its order, each with its key and a copy of the memory's sort key (the tag's listing index). */
function tagRows(memoryId: string, memorySortKey: string, tags: string[]) {
  return tags.map((tag, position) => ({
    memory_id: memoryId,
    position,
    tag,
    tag_key: tag.toLowerCase(),
    sort_key: memorySortKey,
  }));
}

/** The place columns of a memory's row for this place (all null for none). */
function placeColumns(place: StoredPlace | null) {
  if (place === null) {
    return {
      place_name: null,
      place_latitude: null,
      place_longitude: null,
      place_country: null,
      place_key: null,
      place_x: null,
      place_y: null,
    };
  }
  const cell = gridCell(place.latitude, place.longitude);
  return {
    place_name: place.name,
    place_latitude: place.latitude,
    place_longitude: place.longitude,
    place_country: place.country_code,
    place_key: placeKeyOf(place.name),
    place_x: cell.x,
    place_y: cell.y,
  };
}

/** The place a row holds, or null. */
export function placeOf(
  row: Pick<MemoryRow, "place_name" | "place_latitude" | "place_longitude" | "place_country">,
): StoredPlace | null {
  if (row.place_name === null || row.place_latitude === null || row.place_longitude === null) return null;
  return {
    name: row.place_name,
    latitude: Number(row.place_latitude),
    longitude: Number(row.place_longitude),
    country_code: row.place_country,
  };
}

/** A place's name as the place filter compares it: folded, spaces squeezed. */
export function placeKeyOf(name: string): string {
  return foldForSearch(name).trim().replace(/\s+/gu, " ");
}

/** Places within bounds; across the antimeridian (west > east), east of `west` or west of `east`. */
function withinCondition(bounds: Bounds): Expression<SqlBool> {
  const latitude = sql<SqlBool>`memories.place_latitude between ${bounds.south} and ${bounds.north}`;
  const longitude =
    bounds.west <= bounds.east
      ? sql<SqlBool>`memories.place_longitude between ${bounds.west} and ${bounds.east}`
      : sql<SqlBool>`(memories.place_longitude >= ${bounds.west} or memories.place_longitude <= ${bounds.east})`;
  return sql<SqlBool>`(${latitude} and ${longitude})`;
}

/** The tag filter as stored in `memory_tags.tag_key`, or undefined for none. */
/** The filter's first tag's key: the one whose index entries a tag filter walks. */
function tagKeyOf(filter: ListFilter): string | undefined {
  return tagKeysOf(filter)[0];
}

/** The filter's tags as keys (trimmed, lower case), empty and repeated ones dropped, in the order given. */
export function tagKeysOf(filter: Pick<ListFilter, "tag">): string[] {
  const tags = filter.tag === undefined ? [] : typeof filter.tag === "string" ? [filter.tag] : filter.tag;
  return [...new Set(tags.map((tag) => tag.trim().toLowerCase()).filter((key) => key !== ""))];
}

/** Words as an FTS5 query: each a quoted phrase (anything inside quotes is plain text, never query syntax), all required. */
function matchExpression(words: string[]): string {
  return words.map((word) => `"${word.replaceAll('"', '""')}"`).join(" AND ");
}

/** Whether a filter narrows by place (its country, name, bounds or distance). */
export function hasPlaceFilter(filter: ListFilter): boolean {
  return Boolean(filter.country || (filter.place && placeKeyOf(filter.place)) || filter.within || filter.near);
}

/** Conditions joined with AND (one alone as it is). */
function and(conditions: Expression<SqlBool>[]): Expression<SqlBool> {
  return conditions.length === 1 ? conditions[0]! : sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
}

/** Newest date first, undated last ("0000-00-00" sorts lowest), then newest created, then id. */
export function sortKey(memoryDate: string | null, createdAt: string, id: string): string {
  return `${memoryDate ?? "0000-00-00"}|${createdAt}|${id}`;
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
