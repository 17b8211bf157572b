import { randomUUID } from "node:crypto";
import {
  inReactionOrder,
  type Memory,
  type MemoryBatch,
  type MemoryEvent,
  type MemoryNeighbours,
  type MemoryPage,
  type MemoryTimeline,
  type GeoPoint,
  type OnThisDay,
  type ParsedMemoryInput,
  type Photo,
  PlaceLimits,
  normalizeTags,
  type TagList,
  type TagRenamed,
} from "@memory-box/contract";
import type { Transaction } from "kysely";
import type { BeforeCommit } from "../../db/before-commit";
import { AppError } from "../../errors";
import { PreparedJson } from "../../lib/prepared-json";
import { searchWords } from "../../lib/search-text";
import type { CollectionStats, Database, PhotoRow } from "../../db/schema";
import { firstIndexBelow, ListingCache, pageGeneration, type SearchCarry, type SearchMatches } from "./listing-cache";
import {
  hasPlaceFilter,
  type ListedMemory,
  type ListedPhoto,
  type ListFilter,
  type MemoriesRepository,
  type MemoryFields,
  placeKeyOf,
  placeOf,
  type StoredPlace,
  tagKeysOf,
} from "./memories.repository";
import { windowMonthDays, windowStart, yearsAgo } from "./on-this-day";
import type { PhotosRepository } from "../photos";

export interface Actor {
  userId: string;
}

/** The list's search and filters, as the contract checked them. */
export interface ListQuery {
  q?: string | undefined;
  tag?: string | readonly string[] | undefined;
  country?: string | undefined;
  place?: string | undefined;
  within?: string | undefined;
  near?: string | undefined;
  cursor?: string | undefined;
  /** A timeline month (`YYYY-MM`) or `undated` to start at, when there is no cursor. */
  from?: string | undefined;
  limit: number;
}

export interface MemoriesServiceDeps {
  memories: MemoriesRepository;
  photos: PhotosRepository;
  /** Turns a stored photo into its API form, with its stable URLs. */
  presentPhoto: (photo: ListedPhoto) => Photo;
  /** Deletes a photo's files after its rows are gone; failures are logged, never thrown. */
  deletePhotoFiles: (photos: PhotoRow[]) => Promise<void>;
  publish: (event: MemoryEvent) => void;
  /**
   * The country (ISO 3166-1 alpha-2) a point lies in, as the place names know it; null at sea or
   * far from any known place. A place's country is always the server's finding, never the client's.
   */
  countryAt: (point: GeoPoint) => Promise<string | null>;
  /** Searches matching more than this are read from the database page by page rather than kept. */
  maxKeptSearchMatches?: number;
  /** "On this day" takes memories dated this many days either side of the date (ON_THIS_DAY_WINDOW_DAYS). */
  onThisDayWindowDays?: number;
  now?: () => Date;
}

const memoryNotFound = () => new AppError("memory_not_found");
export const defaultOnThisDayWindowDays = 3;
/**
 * At most this many memories make one "On this day" (the newest, over every year): a strip scrolled
 * sideways above home, each a thumbnail. 100 is more than a member scrolls through and, at a
 * lifetime's density (the lifetime benchmark, issue #37), presenting 200 took 32 ms (p95) on
 * PostgreSQL against a target of 20.
 */
export const maxOnThisDayMemories = 100;
const cursorPattern = /^\d{4}-\d{2}-\d{2}\|[\d\-T:.Z]{10,40}\|[0-9a-f-]{36}$/;

/**
 * The shared collection: every member reads, edits and deletes every memory. The author stays
 * the author; the last editor is recorded. Photos change hands only inside a memory's save.
 */
export class MemoriesService {
  private readonly listing: ListingCache;
  /** Pages being built, by generation and key: requests asking for the same one wait for it. */
  private readonly pendingPages = new Map<string, Promise<PreparedJson>>();
  /** Searches being found, by generation and words: requests asking for the same one wait for it. */
  private readonly pendingMatches = new Map<string, Promise<FoundSearch>>();

  constructor(private readonly deps: MemoriesServiceDeps) {
    this.listing = new ListingCache(deps.maxKeptSearchMatches);
  }

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }

  /**
   * A list page as the UTF-8 JSON the API answers with, kept in the listing cache by
   * `memory_stats.generation` and `responses` (photo URLs never change, ADR 0018). A member
   * scrolling or a second tab re-asking then costs no query of its own, not the page's queries and
   * serialization: `stats` are the collection's `memory_stats` as the request's member check read
   * them, in the same query, after the request arrived, so before the page is read.
   */
  async listJson(query: ListQuery, stats: CollectionStats | undefined): Promise<PreparedJson> {
    const generation = pageGeneration(stats);
    // A page depends on the search's words (not their order, case or accents) and the tag's key.
    const key = JSON.stringify([searchKey(query), query.cursor ?? null, query.cursor ? null : (query.from ?? null), query.limit]);
    const cached = this.listing.page(stats, key);
    if (cached !== undefined) return cached;
    if (generation === undefined) return this.preparePage(query, stats);
    // Requests for the same page at once (every device refetching after a change) share one build.
    const pendingKey = `${generation} ${key}`;
    let pending = this.pendingPages.get(pendingKey);
    if (!pending) {
      pending = this.preparePage(query, stats)
        .then((json) => {
          this.listing.keepPage(stats, key, json);
          return json;
        })
        .finally(() => this.pendingPages.delete(pendingKey));
      this.pendingPages.set(pendingKey, pending);
    }
    return pending;
  }

  /**
   * Serialized as built: `present` makes exactly the contract's fields (memories.listing.test.ts
   * checks list pages against `MemoryPage`), so a zod pass over its own output would only cost.
   */
  private async preparePage(query: ListQuery, stats: CollectionStats | undefined): Promise<PreparedJson> {
    return PreparedJson.of(await this.buildPage(query, stats));
  }

  private async buildPage(query: ListQuery, stats: CollectionStats | undefined): Promise<MemoryPage> {
    const filter = filterOf(query);
    const after = query.cursor !== undefined ? decodeCursor(query.cursor) : query.from && startOf(query.from);
    const { kept: matches, leading } = await this.searchMatches(filter, stats);
    if (matches) {
      // A slice of the search's kept matches: the page is read by primary key, whatever its depth.
      const start = after === undefined ? 0 : firstIndexBelow(matches.sortKeys, after);
      const [records, total] = await Promise.all([
        this.deps.memories.findManyInOrder(matches.ids.slice(start, start + query.limit)),
        stats?.total ?? this.deps.memories.countAll(),
      ]);
      const end = start + query.limit;
      return {
        items: records.map((record) => this.present(record)),
        next_cursor: end < matches.ids.length ? encodeCursor(matches.sortKeys[end - 1]!) : null,
        matched: matches.ids.length,
        total,
      };
    }
    const leadingStart = leading && (after === undefined ? 0 : firstIndexBelow(leading.sortKeys, after));
    if (leading && leadingStart !== undefined && leadingStart + query.limit <= leading.ids.length) {
      // Too many matches to keep, but this page lies within the first ones the same read listed:
      // read by primary key, without a second search.
      const end = leadingStart + query.limit;
      const [records, total] = await Promise.all([
        this.deps.memories.findManyInOrder(leading.ids.slice(leadingStart, end)),
        stats?.total ?? this.deps.memories.countAll(),
      ]);
      return {
        items: records.map((record) => this.present(record)),
        next_cursor: end < leading.matched ? encodeCursor(leading.sortKeys[end - 1]!) : null,
        matched: leading.matched,
        total,
      };
    }
    const [{ records, hasMore }, total, matched] = await Promise.all([
      this.deps.memories.page(filter, after, query.limit),
      stats?.total ?? this.deps.memories.countAll(),
      this.matchedCount(filter, stats),
    ]);
    const last = records.at(-1);
    return {
      items: records.map((record) => this.present(record)),
      next_cursor: hasMore && last ? encodeCursor(last.sort_key) : null,
      matched: matched ?? total,
      total,
    };
  }

  /**
   * A search's matches in listing order, found once per generation (the first page asked for after
   * a change finds them, unless the change was this process's own write, which carries them over);
   * `kept` undefined without a search, or for one matching too much to keep. Searches with the same
   * words in any order, case or accents share them, and requests asking at once share one query.
   * For one matching too much, the requests that made (or shared) the read get its first matches
   * and their count as `leading`; the count is kept, the matches are not.
   */
  private async searchMatches(filter: ListFilter, stats: CollectionStats | undefined): Promise<FoundSearch> {
    if (!filter.q?.trim() || stats === undefined) return {};
    const key = searchKey(filter);
    const cached = this.listing.matches(stats.generation, key);
    if (cached !== undefined) return cached === null ? {} : { kept: cached };
    const pendingKey = `${stats.generation} ${key}`;
    let pending = this.pendingMatches.get(pendingKey);
    if (!pending) {
      const max = this.listing.maxKeptMatches;
      pending = this.deps.memories
        .searchMatches(filter, max)
        .then((found): FoundSearch => {
          const kept = found && found.matched <= max ? { sortKeys: found.sortKeys, ids: found.ids } : undefined;
          this.listing.keepMatches(stats.generation, key, filter, kept ?? null);
          if (kept || !found) return kept ? { kept } : {};
          // Too many to keep: their count came with them, for the page's matched count.
          this.listing.keepMatchedCount(stats.generation, key, found.matched);
          return { leading: found };
        })
        .finally(() => this.pendingMatches.delete(pendingKey));
      this.pendingMatches.set(pendingKey, pending);
    }
    return pending;
  }

  /**
   * Runs a write of one memory so that the kept searches survive it: the transaction reads the
   * collection's generation first, locking out other writes until it commits (every write of
   * memories, tags or photos takes the stats row anyway), then which searches are kept (after
   * the lock: those a write it waited for carried on, or is about to), and after its changes reads
   * the memory against each of them and the generation it leaves. Nothing but this write happened
   * between the two generations: the searches are carried to the new one with only this memory
   * re-placed, instead of being found again by the first request after the change. Only when
   * searches are kept.
   */
  private async writeKeepingSearches<T>(memoryId: string, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    if (this.listing.keptSearches().searches.length === 0) return this.deps.memories.transaction(work);
    let carry: SearchCarry | undefined;
    const result = await this.deps.memories.transaction(async (trx) => {
      const from = await this.deps.memories.generationBeforeWrite(trx);
      const { searches } = this.listing.keptSearches();
      const done = await work(trx);
      if (from !== undefined && searches.length > 0) {
        const filters = searches.map(([, search]) => search.filter);
        const { generation, memory } = await this.deps.memories.matchesAfterWrite(memoryId, filters, trx);
        if (generation !== undefined)
          carry = { from, to: generation, keys: searches.map(([key]) => key), id: memoryId, written: memory };
      }
      return done;
    });
    if (carry) this.listing.carryMatches(carry);
    return result;
  }

  /** A search's or tag filter's count, counted once per generation; undefined without a filter (all match). */
  private async matchedCount(filter: ListFilter, stats: CollectionStats | undefined): Promise<number | undefined> {
    if (!filter.q?.trim() && tagKeysOf(filter).length === 0 && !hasPlaceFilter(filter)) return undefined;
    const key = searchKey(filter);
    const cached = this.listing.matchedCount(stats?.generation, key);
    if (cached !== undefined) return cached;
    const matched = await this.deps.memories.countMatched(filter);
    this.listing.keepMatchedCount(stats?.generation, key, matched);
    return matched;
  }

  /**
   * How the memories a search and tag filter match spread over the months, for the timeline beside
   * the list. Kept in the listing cache by `generation` alone, like a search's matches: comments
   * and reactions change no month's count. A kept search's matches are counted as they are,
   * anything else is one grouped read of the sort key index.
   */
  async timelineJson(query: ListQuery | ListFilter, stats: CollectionStats | undefined): Promise<PreparedJson> {
    const filter = filterOf(query);
    const key = searchKey(filter);
    const cached = this.listing.timeline(stats?.generation, key);
    if (cached !== undefined) return cached;
    const { kept: matches } = await this.searchMatches(filter, stats);
    let counts: { month: string; count: number }[];
    if (matches) {
      const byMonth = new Map<string, number>();
      for (const sortKey of matches.sortKeys) byMonth.set(sortKey.slice(0, 7), (byMonth.get(sortKey.slice(0, 7)) ?? 0) + 1);
      counts = [...byMonth].map(([month, count]) => ({ month, count }));
    } else {
      counts = await this.deps.memories.monthCounts(filter);
    }
    const timeline: MemoryTimeline = {
      months: counts.filter(({ month }) => month !== undatedMonth),
      undated: counts.find(({ month }) => month === undatedMonth)?.count ?? 0,
    };
    const json = PreparedJson.of(timeline);
    this.listing.keepTimeline(stats?.generation, key, json);
    return json;
  }

  /**
   * "On this day" for the member's calendar `date`: memories of the same days in earlier years,
   * grouped by how many years ago, the nearest first. Kept in the listing cache like a list page
   * (it shows the same counts), so every device asking on the same day costs one build until the
   * next change.
   */
  async onThisDayJson(date: string, stats: CollectionStats | undefined): Promise<PreparedJson> {
    const windowDays = this.deps.onThisDayWindowDays ?? defaultOnThisDayWindowDays;
    const key = JSON.stringify(["on-this-day", date, windowDays]);
    const cached = this.listing.page(stats, key);
    if (cached !== undefined) return cached;
    const candidates = await this.deps.memories.byMonthDay(
      windowMonthDays(date, windowDays),
      windowStart(date, windowDays),
      maxOnThisDayMemories,
    );
    const byYears = new Map<number, string[]>();
    for (const candidate of candidates) {
      const years = yearsAgo(candidate.memory_date, date, windowDays);
      if (years === undefined) continue;
      const ids = byYears.get(years) ?? [];
      ids.push(candidate.id);
      byYears.set(years, ids);
    }
    const records = new Map(
      (await this.deps.memories.findManyInOrder([...byYears.values()].flat())).map((record) => [record.id, record]),
    );
    const answer: OnThisDay = {
      date,
      window_days: windowDays,
      groups: [...byYears]
        .sort(([a], [b]) => a - b)
        .map(([years, ids]) => ({
          years_ago: years,
          memories: ids.flatMap((id) => {
            const record = records.get(id);
            return record ? [this.present(record)] : [];
          }),
        }))
        .filter((group) => group.memories.length > 0),
    };
    const json = PreparedJson.of(answer);
    this.listing.keepPage(stats, key, json);
    return json;
  }

  /** The memories either side of this one in the list's order (unfiltered), to step through them one by one. */
  async neighbours(id: string): Promise<MemoryNeighbours> {
    const sortKey = await this.deps.memories.sortKeyOf(id);
    if (sortKey === undefined) throw memoryNotFound();
    const { previous, next } = await this.deps.memories.neighbours(sortKey);
    return { previous: previous ?? null, next: next ?? null };
  }

  /** One memory as a list page shows it (one query, counts included). */
  async get(id: string): Promise<Memory> {
    const [memory] = await this.presentMany([id]);
    if (!memory) throw memoryNotFound();
    return memory;
  }

  /** Memories as a list page shows them, in the order of `ids` (one query; in a write's transaction, as it left them). */
  private async presentMany(ids: string[], executor?: Transaction<Database>): Promise<Memory[]> {
    return (await this.deps.memories.findManyInOrder(ids, executor)).map((record) => this.present(record));
  }

  async tags(): Promise<TagList> {
    return { tags: await this.deps.memories.tagCounts() };
  }

  /**
   * Renames a tag on every memory carrying it (an owner's tidy-up, issue #34), in one transaction:
   * into a name another tag has (ignoring case) it merges them, a memory with both keeping one,
   * where the first of them stood. Each memory changed is saved as an edit (its version, search
   * text and the list's generation move, so kept pages and open screens refresh); a memory
   * another member is saving at the same moment waits for the transaction, or is refused by its
   * version. 404 when no memory carries the tag.
   */
  async renameTag(actor: Actor, from: string, to: string): Promise<TagRenamed> {
    const fromKey = from.trim().toLowerCase();
    if (fromKey === "") throw new AppError("not_found");
    const changed = await this.deps.memories.transaction(async (trx) => {
      await this.deps.memories.generationBeforeWrite(trx);
      const ids = await this.deps.memories.idsWithTag(fromKey, trx);
      for (const id of ids) {
        const current = await this.deps.memories.findById(id, trx);
        if (!current) continue;
        const tags = normalizeTags(current.tags.map((tag) => (tag.toLowerCase() === fromKey ? to : tag))) ?? [];
        const saved = await this.deps.memories.update(
          current,
          { title: current.title, content: current.content, memory_date: current.memory_date, tags },
          { userId: actor.userId, at: this.now(), expectedVersion: current.version },
          trx,
        );
        if (!saved) throw conflict();
      }
      return ids;
    });
    if (changed.length === 0) throw new AppError("not_found");
    for (const id of changed) this.deps.publish({ type: "memory.updated", id, actor: actor.userId });
    return { name: to, memories: changed.length };
  }

  /**
   * A new memory, as a list page shows it, read in the create's own transaction. `beforeCommit`
   * joins that transaction with the new memory (a create's Idempotency-Key records its answer so,
   * ADR 0043).
   */
  async create(actor: Actor, input: ParsedMemoryInput, beforeCommit?: BeforeCommit<Memory>): Promise<Memory> {
    const id = randomUUID();
    // The place's country is looked up before the write: the first lookup loads the place names.
    const fields = { ...(await this.fieldsOf(input)), place: await this.placeOf(input.place ?? null) };
    const memory = await this.writeKeepingSearches(id, async (trx) => {
      await this.assertAttachable(input.photo_ids, null, trx);
      await this.deps.memories.insert({ id, userId: actor.userId, createdAt: this.now(), ...fields }, trx);
      await this.deps.photos.attach(id, input.photo_ids, trx);
      const [made] = await this.presentMany([id], trx);
      if (!made) throw memoryNotFound();
      await beforeCommit?.(trx, made);
      return made;
    });
    this.deps.publish({ type: "memory.created", id, actor: actor.userId });
    return memory;
  }

  /**
   * Many memories at once, one per capture day (ADR 0063): every item checked and written in one
   * transaction (a bad one leaves nothing written), then each told to the live stream and to
   * notifications as a single create is. `beforeCommit` joins the transaction as in `create`.
   */
  async createBatch(actor: Actor, items: ParsedMemoryInput[], beforeCommit?: BeforeCommit<MemoryBatch>): Promise<MemoryBatch> {
    const prepared: { id: string; input: ParsedMemoryInput; fields: MemoryFields }[] = [];
    for (const input of items) {
      prepared.push({
        id: randomUUID(),
        input,
        fields: { ...(await this.fieldsOf(input)), place: await this.placeOf(input.place ?? null) },
      });
    }
    const batch = await this.deps.memories.transaction(async (trx) => {
      await this.assertAttachable(
        prepared.flatMap(({ input }) => input.photo_ids),
        null,
        trx,
      );
      for (const { id, input, fields } of prepared) {
        await this.deps.memories.insert({ id, userId: actor.userId, createdAt: this.now(), ...fields }, trx);
        await this.deps.photos.attach(id, input.photo_ids, trx);
      }
      const made: MemoryBatch = {
        memories: await this.presentMany(
          prepared.map(({ id }) => id),
          trx,
        ),
      };
      await beforeCommit?.(trx, made);
      return made;
    });
    for (const { id } of prepared) this.deps.publish({ type: "memory.created", id, actor: actor.userId });
    return batch;
  }

  /**
   * Replaces the memory's fields and photo list. With `expectedVersion`, an edit made from a
   * stale copy (another tab saved first) is refused with 409 instead of silently winning.
   */
  async update(actor: Actor, id: string, input: ParsedMemoryInput, expectedVersion?: number): Promise<Memory> {
    const fields = await this.fieldsOf(input);
    const removed = await this.writeKeepingSearches(id, async (trx) => {
      const current = await this.deps.memories.findById(id, trx);
      if (!current) throw memoryNotFound();
      if (expectedVersion !== undefined && current.version !== expectedVersion) throw conflict();
      await this.assertAttachable(input.photo_ids, id, trx);
      const updated = await this.deps.memories.update(
        current,
        fields,
        { userId: actor.userId, at: this.now(), expectedVersion: current.version },
        trx,
      );
      if (!updated) throw conflict();
      const keep = new Set(input.photo_ids);
      const dropped = current.photos.filter((photo) => !keep.has(photo.id));
      await this.deps.photos.deleteByIds(
        dropped.map((photo) => photo.id),
        trx,
      );
      await this.deps.photos.attach(id, input.photo_ids, trx);
      return dropped;
    });
    await this.deps.deletePhotoFiles(removed);
    this.deps.publish({ type: "memory.updated", id, actor: actor.userId });
    return this.get(id);
  }

  async remove(actor: Actor, id: string): Promise<void> {
    const photos = await this.writeKeepingSearches(id, async (trx) => {
      const owned = await this.deps.photos.ofMemory(id, trx);
      await this.deps.photos.deleteByIds(
        owned.map((photo) => photo.id),
        trx,
      );
      if (!(await this.deps.memories.delete(id, trx))) throw memoryNotFound();
      return owned;
    });
    await this.deps.deletePhotoFiles(photos);
    this.deps.publish({ type: "memory.deleted", id, actor: actor.userId });
  }

  /**
   * Chooses the photo that leads the memory's page (ADR 0062): one of its own photos (400
   * `validation_failed` naming `photo_id` otherwise: another memory's, or none), or null for the
   * first one. A new version, as any edit, told to the live stream.
   */
  async setCover(actor: Actor, id: string, photoId: string | null, expectedVersion?: number): Promise<Memory> {
    await this.deps.memories.transaction(async (trx) => {
      const current = await this.deps.memories.findById(id, trx);
      if (!current) throw memoryNotFound();
      if (expectedVersion !== undefined && current.version !== expectedVersion) throw conflict();
      if (photoId !== null && !current.photos.some((photo) => photo.id === photoId)) {
        const problem = { path: "body.photo_id", message: "must be one of the memory's photos" };
        throw new AppError("validation_failed", { details: [problem], message: `${problem.path}: ${problem.message}` });
      }
      const changed = await this.deps.memories.touch(
        id,
        { userId: actor.userId, at: this.now(), expectedVersion: current.version },
        { coverPhotoId: photoId },
        trx,
      );
      if (!changed) throw conflict();
    });
    this.deps.publish({ type: "memory.updated", id, actor: actor.userId });
    return this.get(id);
  }

  /**
   * A photo's caption (ADR 0062), null to remove it: only a photo in a memory has one (an upload
   * not yet saved into one is 404, as its own page is to others). Its memory gets a new version,
   * told to the live stream; the answer is the memory.
   */
  async setCaption(actor: Actor, photoId: string, caption: string | null): Promise<Memory> {
    const memoryId = await this.deps.memories.transaction(async (trx) => {
      const [photo] = await this.deps.photos.findByIds([photoId], trx);
      if (!photo?.memory_id) throw new AppError("photo_not_found");
      await this.deps.photos.setCaption(photoId, caption, trx);
      if (!(await this.deps.memories.touch(photo.memory_id, { userId: actor.userId, at: this.now() }, {}, trx))) {
        throw new AppError("photo_not_found");
      }
      return photo.memory_id;
    });
    this.deps.publish({ type: "memory.updated", id: memoryId, actor: actor.userId });
    return this.get(memoryId);
  }

  /** Photos listed in a save must exist and be free, or already belong to this memory. */
  private async assertAttachable(photoIds: string[], memoryId: string | null, trx: Transaction<Database>): Promise<void> {
    if (new Set(photoIds).size !== photoIds.length) throw new AppError("duplicate_photo");
    const photos = await this.deps.photos.findByIds(photoIds, trx);
    if (photos.length !== photoIds.length) throw new AppError("unknown_photo");
    if (photos.some((photo) => photo.memory_id !== null && photo.memory_id !== memoryId)) {
      throw new AppError("photo_in_use");
    }
  }

  /** The input's fields; an edit that leaves `place` out keeps the memory's place. */
  private async fieldsOf(input: ParsedMemoryInput): Promise<MemoryFields> {
    return {
      title: input.title,
      content: input.content,
      memory_date: input.memory_date,
      tags: input.tags ?? [],
      place: input.place === undefined ? undefined : await this.placeOf(input.place),
    };
  }

  /** A place as stored: the member's name and point, the country found from the point. */
  private async placeOf(place: NonNullable<ParsedMemoryInput["place"]> | null): Promise<StoredPlace | null> {
    if (place === null) return null;
    const point = { latitude: place.latitude, longitude: place.longitude };
    return { name: place.name, ...point, country_code: await this.deps.countryAt(point) };
  }

  private present(record: ListedMemory): Memory {
    const photos = record.photos.map((photo) => this.deps.presentPhoto(photo));
    return {
      id: record.id,
      title: record.title,
      content: record.content,
      memory_date: record.memory_date,
      tags: record.tags.length > 0 ? record.tags : null,
      photo_urls: photos.length > 0 ? photos.map((photo) => photo.url) : null,
      photos,
      user_id: record.user_id,
      profiles: record.display_name === null ? null : { display_name: record.display_name },
      updated_by: record.updated_by,
      updated_by_profile: record.editor_display_name === null ? null : { display_name: record.editor_display_name },
      created_at: record.created_at,
      updated_at: record.updated_at,
      version: record.version,
      comment_count: record.comment_count,
      reactions: inReactionOrder(record.reactions),
      place: placeOf(record),
      cover_photo_id: record.cover_photo_id,
    };
  }
}

/** A list query's search and filters; "near" reaches `PlaceLimits.nearRadiusKm`. */
function filterOf(query: ListFilter): ListFilter {
  return {
    q: query.q,
    tag: query.tag,
    country: query.country,
    place: query.place,
    within: query.within,
    near: query.near,
    nearRadiusKm: query.near === undefined ? undefined : PlaceLimits.nearRadiusKm,
  };
}

/**
 * The same words in any order, case or accents, the same tag and the same place filters find the
 * same memories.
 */
function searchKey(filter: ListFilter): string {
  return JSON.stringify([
    searchWords(filter.q ?? "").sort(),
    // Every chosen tag must be there, so their order does not matter.
    tagKeysOf(filter).sort(),
    filter.country ?? null,
    filter.place === undefined ? null : placeKeyOf(filter.place) || null,
    filter.within ?? null,
    filter.near ?? null,
  ]);
}

function conflict(): AppError {
  return new AppError("memory_changed");
}

/** The month part of an undated memory's sort key ("0000-00-00", sortKey in the repository). */
const undatedMonth = "0000-00";

/**
 * A sort key just above every memory of a timeline month (or of the undated ones), so that the
 * list read "below" it starts with that month's newest memory.
 */
function startOf(from: string): string {
  const month = from === "undated" ? undatedMonth : from;
  return `${month}-99|~|~`;
}

function encodeCursor(sortKey: string): string {
  return Buffer.from(sortKey).toString("base64url");
}

function decodeCursor(cursor: string): string {
  const sortKey = Buffer.from(cursor, "base64url").toString("utf8");
  if (!cursorPattern.test(sortKey)) throw new AppError("invalid_cursor");
  return sortKey;
}

/** What one read of a search found: all its matches, kept; or, too many to keep, the first ones and how many there are. */
interface FoundSearch {
  kept?: SearchMatches;
  leading?: SearchMatches & { matched: number };
}
