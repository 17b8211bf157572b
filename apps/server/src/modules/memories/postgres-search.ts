import { type Expression, type Kysely, type SqlBool, sql } from "kysely";
import type { Database } from "../../db/schema";
import { containsPattern, servedByTrigrams } from "../../lib/search-text";

/**
 * PostgreSQL's search through the dictionary of the memories' words (ADR 0081, migration
 * 2026_11_28_284000). A query word occurs in a memory's `search_text` exactly when it occurs in
 * one of its whitespace-separated words (a query word holds no whitespace), so it stands for the
 * dictionary's words that contain it, found by the dictionary's trigram index, and a memory
 * matches when it holds one of them: an exact question to the GIN index on each memory's words,
 * with no row read to recheck. A word shorter than a trigram is compared with LIKE, row by row.
 * Only for a search by words alone: with a tag or place filter too, the repository's LIKE
 * conditions (served by the trigram index on `search_text`) go with the other filters' indexes.
 *
 * Three reads grow with the matches unless told otherwise: the count, the sort by listing order
 * and the rows read to sort. So the count of a one-word search is the dictionary's (kept by
 * triggers), less the repeats of memories holding several of its words; and when there are many
 * matches, a page is found through bands of the listing order (months from `memory_months`), each
 * band's matches the GIN index's and the sort key index's answers intersected, so only about as
 * many rows are read as the page shows.
 */

/** A query word standing for more dictionary words than this is counted from its matches. */
const maxOverlapWords = 8;

/** The memory's words as the GIN index `memories_search_words_idx` holds them (the expression to the letter). */
const memoryWords = sql`memory_search_words(memories.search_text)`;

/** How a search chooses between reading every match and bands of the listing order. */
export interface BandTuning {
  /**
   * A band spans about this many times the memories that should hold the matches still wanted
   * (the matches are not spread evenly over the years).
   */
  margin: number;
  /** At most this many memories a band: its bitmap then stays exact (one entry a row, not a page) in the default `work_mem`. */
  maxMemories: number;
  /**
   * How many of the sort key index's entries a band reads for the cost of one row read: bands are
   * read when their entries (at this rate) and rows cost less than reading every match's row.
   */
  entriesPerRow: number;
}

/**
 * Measured at 1,000,000 memories: a band's 9,500 index entries took 1.6 ms, 10,000 matches' rows
 * 25 ms hot (88 ms from the OS's cache); bands are then chosen from about 3,000 matches.
 */
const bandTuning: BandTuning = { margin: 3, maxMemories: 40_000, entriesPerRow: 10 };

/** A query word as the dictionary answers it: the words containing it and how many memories hold each. */
interface DictionaryWord {
  word: string;
  /** The dictionary's words containing it (none: nothing matches). */
  words: string[];
  /** The memories holding each, summed: the matches exactly when there is one such word, at least the matches otherwise. */
  memories: number;
}

interface Match {
  id: string;
  sort_key: string;
}

/**
 * A search by words alone (no tag or place filter), when one of its words is long enough for the
 * dictionary; each read decides from the dictionary's counts how to go.
 */
export class PostgresWordSearch {
  private constructor(
    private readonly db: Kysely<Database>,
    private readonly looked: DictionaryWord[],
    private readonly short: string[],
    private readonly bands: BandTuning,
  ) {}

  /** Undefined when every word is shorter than a trigram (the LIKE search serves those). */
  static async of(
    db: Kysely<Database>,
    words: readonly string[],
    bands: BandTuning = bandTuning,
  ): Promise<PostgresWordSearch | undefined> {
    const long = words.filter(servedByTrigrams);
    if (long.length === 0) return undefined;
    const lookups = long.map(
      (word, position) =>
        sql`select ${position}::int as position, word, count from search_words where word like ${containsPattern(word)} and count > 0`,
    );
    const { rows } = await sql<{ position: number; word: string; count: string }>`${sql.join(lookups, sql` union all `)}`.execute(
      db,
    );
    const looked = long.map((word): DictionaryWord => ({ word, words: [], memories: 0 }));
    for (const row of rows) {
      looked[row.position]!.words.push(row.word);
      looked[row.position]!.memories += Number(row.count);
    }
    const short = words.filter((word) => !servedByTrigrams(word));
    return new PostgresWordSearch(db, looked, short, bands);
  }

  /** No memory can match: a long word is in no memory's words. */
  private get none(): boolean {
    return this.looked.some((word) => word.words.length === 0);
  }

  /**
   * The exact count of a one-word search from the dictionary, without reading every match: the
   * memories holding each dictionary word it stands for, summed, less the repeats — a memory
   * holding several of them ("picnic" and "picnic."), counted once for each, found through the
   * GIN index by each pair of them (a few rows: those that hold two). Undefined for several query
   * words, or a word standing for more than `maxOverlapWords` (their pairs would be too many).
   */
  private async dictionaryCount(): Promise<number | undefined> {
    const [only] = this.looked;
    if (this.looked.length !== 1 || this.short.length > 0) return undefined;
    const words = only!.words;
    if (words.length <= 1) return only!.memories;
    if (words.length > maxOverlapWords) return undefined;
    const pairs = words.flatMap((first, index) =>
      words.slice(index + 1).map((second) => sql`${memoryWords} @> ${[first, second]}::text[]`),
    );
    // Two words: a memory holding both is counted once too many; more: as many times too many as
    // it holds of them, less one (each memory's words split once, then looked up per word).
    const { rows } = await (
      words.length === 2
        ? sql<{ repeats: string }>`select count(*) as repeats from memories where ${pairs[0]!}`
        : sql<{ repeats: string }>`select coalesce(sum(held - 1), 0) as repeats from (
          select (select count(*) from unnest(${words}::text[]) as word where held_words @> array[word]) as held
          from (select ${memoryWords} as held_words from memories where ${sql.join(pairs, sql` or `)} offset 0) as holding
        ) as holding_several`
    ).execute(this.db);
    return only!.memories - Number(rows[0]!.repeats);
  }

  /** The search as a condition, each long word's dictionary words as a value the planner sees. */
  private condition(): Expression<SqlBool> {
    return sql<SqlBool>`${sql.join(
      [
        ...this.looked.map((word) => sql`${memoryWords} && ${word.words}::text[]`),
        ...this.short.map((word) => sql`memories.search_text like ${containsPattern(word)}`),
      ],
      sql` and `,
    )}`;
  }

  /** How many memories match. */
  async count(): Promise<number> {
    if (this.none) return 0;
    const counted = await this.dictionaryCount();
    if (counted !== undefined) return counted;
    const { rows } = await sql<{ count: string }>`select count(*) as count from memories where ${this.condition()}`.execute(
      this.db,
    );
    return Number(rows[0]!.count);
  }

  /**
   * The matches' ids and sort keys in listing order, at most `max + 1`, and their count; with more
   * than `max` and a count from the dictionary (one query word), only the first `leading` (a page's worth).
   */
  async matches(max: number, leading: number): Promise<{ sortKeys: string[]; ids: string[]; matched: number }> {
    if (this.none) return { sortKeys: [], ids: [], matched: 0 };
    // The dictionary's sum is at least the count: when it is at most `max`, every match is read anyway.
    const counted = this.looked[0]!.memories > max ? await this.dictionaryCount() : undefined;
    if (counted !== undefined && counted > max) {
      const first = await this.firstInOrder(undefined, Math.min(leading, max + 1), counted);
      return { sortKeys: first.map((match) => match.sort_key), ids: first.map((match) => match.id), matched: counted };
    }
    // Every match, counted and sorted: read from the GIN index's answer, never by walking the
    // listing order with the search as a filter (which, for rare words, reads the collection).
    const { rows } = await sql<Match & { matched: string }>`with matches as materialized (
        select memories.id, memories.sort_key from memories where ${this.condition()}
      )
      select id, sort_key, (select count(*) from matches) as matched from matches order by sort_key desc limit ${max + 1}`.execute(
      this.db,
    );
    return {
      sortKeys: rows.map((row) => row.sort_key),
      ids: rows.map((row) => row.id),
      matched: rows.length === 0 ? 0 : Number(rows[0]!.matched),
    };
  }

  /** The first `limit` matches after `after` in listing order (sort key descending). */
  async page(after: string | undefined, limit: number): Promise<Match[]> {
    if (this.none) return [];
    // Bands suit one word; several words match fewer together than any alone (the dictionary
    // cannot tell how many), and the GIN index finds their common matches at once.
    const [only] = this.looked;
    return this.looked.length === 1 ? this.firstInOrder(after, limit, only!.memories) : this.everyMatch(after, limit);
  }

  /** Every match after `after`, from the GIN index's answer, sorted: the first `limit`. */
  private async everyMatch(after: string | undefined, limit: number): Promise<Match[]> {
    const { rows } = await sql<Match>`with matches as materialized (
        select memories.id, memories.sort_key from memories
        where ${this.condition()}${after === undefined ? sql`` : sql` and memories.sort_key < ${after}`}
      )
      select id, sort_key from matches order by sort_key desc limit ${limit}`.execute(this.db);
    return rows;
  }

  /**
   * The first `limit` matches after `after`, of about `matches` in all: band by band of the
   * listing order when that reads less than every match. Each band, from the months' counts,
   * spans about `margin` times the memories that should hold the matches still wanted at this
   * search's share of the collection, at most `maxMemories`; its matches are the GIN index's and
   * the sort key index's answers intersected (a bitmap AND), then sorted. Bands go back in time
   * until enough are found.
   */
  private async firstInOrder(after: string | undefined, limit: number, matches: number): Promise<Match[]> {
    const months = await this.db.selectFrom("memory_months").select(["month", "count"]).where("count", ">", 0).execute();
    months.sort((a, b) => (a.month < b.month ? 1 : a.month > b.month ? -1 : 0));
    const total = months.reduce((sum, month) => sum + Number(month.count), 0);
    const share = Math.min(1, matches / Math.max(total, 1));
    const wanted = limit * this.bands.margin;
    if (wanted / share / this.bands.entriesPerRow + wanted >= matches) return this.everyMatch(after, limit);
    const before = after?.slice(0, 7);
    let next = before === undefined ? 0 : months.findIndex((month) => month.month <= before);
    if (next < 0) return [];
    const found: Match[] = [];
    let upper = after;
    while (found.length < limit && next < months.length) {
      const span = Math.min(this.bands.maxMemories, Math.ceil(((limit - found.length) * this.bands.margin) / share));
      let memories = 0;
      let lowest = months[next]!.month;
      while (next < months.length && (memories < span || memories === 0)) {
        memories += Number(months[next]!.count);
        lowest = months[next]!.month;
        next += 1;
      }
      // The oldest band reaches the start, whatever its months' keys.
      const lower = next < months.length ? lowest : undefined;
      const bounds = [
        ...(lower === undefined ? [] : [sql`memories.sort_key >= ${lower}`]),
        ...(upper === undefined ? [] : [sql`memories.sort_key < ${upper}`]),
      ];
      const { rows } = await sql<Match>`with band as materialized (
          select memories.id, memories.sort_key from memories where ${sql.join([this.condition(), ...bounds], sql` and `)}
        )
        select id, sort_key from band order by sort_key desc limit ${limit - found.length}`.execute(this.db);
      found.push(...rows);
      upper = lower;
    }
    return found;
  }
}
