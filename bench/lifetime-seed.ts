// Seed data for the lifetime benchmark (issue #37): a couple's lifetime collection, written straight
// into a migrated database in bulk. Memory `i` is a pure function of `i`, so a collection of
// 1,000,000 is the one of 100,000 with 900,000 more: the benchmark measures the smaller one, then
// grows it. Rows are the server's own row types, with `sort_key`, `search_text` and photo keys
// made by the app's own functions (as bench/seed.ts does); the migrations' triggers keep
// `memory_stats` and the tags' copies of the sort key. For speed, the indexes of the three tables
// (those that back no constraint) are dropped during the load and created again after it from
// their own definitions, and on SQLite the full-text index is rebuilt once instead of row by row.
import SQLite from "better-sqlite3";
import pg from "pg";
import type { MemoryRow, PhotoRow } from "../apps/server/src/db/schema";
import { searchRowidSql } from "../apps/server/src/db/search-rowids";
import { memorySearchText } from "../apps/server/src/lib/search-text";
import { sortKey } from "../apps/server/src/modules/memories/memories.repository";
import { derivativeKey, displayKey } from "../apps/server/src/modules/photos/photo-key";
import { stillColumns } from "../apps/server/src/modules/photos/photos.service";
import { insertUnnested, prng, type SeedTag, searchWords } from "./seed";

/** Dates over sixty years, 3% undated. */
const firstYear = 1966;
const years = 60;
const undatedShare = 0.03;
/** Distinct tags, used with Zipf-like frequencies (the k-th most common about 1/k as often as the first). */
export const tagCount = 300;
/** Photos per memory on average: 300,000 for 1,000,000 memories. */
export const photosPerMemory = 0.3;

const vocabulary = `a about after afternoon again all along always and another around at autumn away back bakery
beach beautiful bed before best big bike birthday boat book breakfast bridge bright brother cake call
came car castle cat city coffee cold concert cousin day dinner dog down dream early evening every
everyone family far father favourite field finally first flowers food forest friends from fun game
garden gave good great green had happy he her here hill him his holiday home hot house in is it
kids kitchen lake last late laughed little long lunch made market met midnight morning mountain
mum music new next night noon of old on our out park party photos played quiet rain read river
road sand sat school sea she shop sister sky sleep slow small snow so songs spring stars station
stayed still street summer sun sunset swim table tea the then there they this through time to
together took town train trees under up visit walk warm was watched water we weekend went while
white wind window winter with woke wonderful words year yellow you young`
  .split(/\s+/)
  .filter(Boolean);

/** The tags, most common first: single words, then pairs of words ("summer garden"), none containing a search word. */
export const lifetimeTags: readonly string[] = (() => {
  const random = prng(0x7a65);
  const tags = new Set<string>();
  for (const word of vocabulary) if (word.length >= 4 && tags.size < tagCount / 3) tags.add(word);
  while (tags.size < tagCount) {
    tags.add(`${vocabulary[Math.floor(random() * vocabulary.length)]} ${vocabulary[Math.floor(random() * vocabulary.length)]}`);
  }
  const list = [...tags];
  // Shuffled (deterministically), so the common tags are not all the short words.
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
})();

/**
 * What a member's open app asks of this collection in turn, for benches that probe a server while
 * it imports one: the first page, a tag, the timeline, On this day.
 */
export const lifetimeProbePaths: readonly string[] = [
  "/api/v1/memories?limit=30",
  `/api/v1/memories?tag=${encodeURIComponent(lifetimeTags[0]!)}&limit=30`,
  "/api/v1/memories/timeline",
  "/api/v1/memories/on-this-day?date=2026-06-14",
];

const tagWeights = (() => {
  const cumulative: number[] = [];
  let sum = 0;
  for (let rank = 1; rank <= tagCount; rank += 1) cumulative.push((sum += 1 / rank));
  return cumulative.map((value) => value / sum);
})();

function zipfTag(u: number): string {
  let low = 0;
  let high = tagWeights.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (tagWeights[middle]! < u) low = middle + 1;
    else high = middle;
  }
  return lifetimeTags[low]!;
}

/**
 * Files behind the photo rows (the archive benchmark writes them): the `bytes`, size and
 * placeholder of the image photo `index` (counted from the first memory) is given, so a row says
 * what its file holds. Without it, rows describe camera photos that are not there.
 */
export type PhotoFileOf = (index: number) => Pick<PhotoRow, "bytes" | "width" | "height" | "placeholder">;

export interface LifetimeBatch {
  memories: MemoryRow[];
  tags: (SeedTag & { sort_key: string })[];
  photos: PhotoRow[];
}

/** Memories `from` (included) to `to` (excluded) by `userIds` in turn, in batches of `batchSize`. */
export function* lifetimeBatches(
  from: number,
  to: number,
  userIds: string[],
  batchSize: number,
  photoFileOf?: PhotoFileOf,
): Generator<LifetimeBatch> {
  const dateStart = Date.UTC(firstYear, 0, 1);
  const dateSpan = Date.UTC(firstYear + years, 0, 1) - dateStart;
  const createdStart = Date.UTC(2021, 0, 1);
  let batch: LifetimeBatch = { memories: [], tags: [], photos: [] };
  for (let i = from; i < to; i += 1) {
    const random = prng(Math.imul(i + 1, 0x9e3779b1));
    const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
    const hex = (bytes: number) => {
      let out = "";
      while (out.length < bytes * 2) out += (Math.floor(random() * 2 ** 32) >>> 0).toString(16).padStart(8, "0");
      return out.slice(0, bytes * 2);
    };
    const uuid = () => {
      const h = hex(16);
      return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${"89ab"[int(0, 3)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    };
    const words = (n: number) => Array.from({ length: n }, () => vocabulary[Math.floor(random() * vocabulary.length)]!);
    const sentence = () => {
      const list = words(int(6, 14));
      list[0] = capitalize(list[0]!);
      return `${list.join(" ")}.`;
    };

    const id = uuid();
    const userId = userIds[i % userIds.length]!;
    // One memory every few minutes since 2021 (created_at only breaks ties in the list's order).
    const createdMs = createdStart + i * 150_000 + int(0, 60_000);
    const createdAt = new Date(createdMs).toISOString();
    const memoryDate =
      random() < undatedShare ? null : new Date(dateStart + Math.floor(random() * dateSpan)).toISOString().slice(0, 10);
    const title = words(int(2, 6));
    title[0] = capitalize(title[0]!);
    const content = random() < 0.1 ? null : Array.from({ length: int(1, 4) }, sentence);
    // Each search word in ~1% of memories, as in the memories bench.
    for (const word of searchWords) {
      if (random() >= 0.01) continue;
      if (content && random() < 0.7) {
        const at = int(0, content.length - 1);
        const parts = content[at]!.split(" ");
        parts.splice(int(1, parts.length - 1), 0, word);
        content[at] = parts.join(" ");
      } else {
        title.splice(int(1, title.length), 0, word);
      }
    }
    const tags = new Set<string>();
    const wanted = random() < 0.1 ? 0 : int(1, 5);
    for (let attempt = 0; tags.size < wanted && attempt < 20; attempt += 1) tags.add(zipfTag(random()));
    const fields = { title: title.join(" "), content: content ? content.join(" ") : null, tags: [...tags] };
    const key = sortKey(memoryDate, createdAt, id);
    batch.memories.push({
      id,
      cover_photo_id: null,
      title: fields.title,
      content: fields.content,
      memory_date: memoryDate,
      user_id: userId,
      updated_by: userId,
      created_at: createdAt,
      updated_at: createdAt,
      version: 1,
      sort_key: key,
      search_text: memorySearchText(fields),
      place_name: null,
      place_latitude: null,
      place_longitude: null,
      place_country: null,
      place_key: null,
      place_x: null,
      place_y: null,
    });
    fields.tags.forEach((tag, position) =>
      batch.tags.push({ memory_id: id, position, tag, tag_key: tag.toLowerCase(), sort_key: key }),
    );
    // 0.3 photos per memory: 15% have one, 7.5% two.
    const draw = random();
    const photoCount = draw < 0.15 ? 1 : draw < 0.225 ? 2 : 0;
    for (let position = 0; position < photoCount; position += 1) {
      const uploadedMs = createdMs - int(5, 600) * 1000;
      const objectKey = `${userId}/${uploadedMs}-${hex(6)}.jpg`;
      const portrait = random() < 0.3;
      batch.photos.push({
        id: uuid(),
        memory_id: id,
        caption: null,
        position,
        owner_id: userId,
        object_key: objectKey,
        preview_key: derivativeKey(objectKey, "preview"),
        thumbnail_key: derivativeKey(objectKey, "thumbnail"),
        display_key: displayKey(objectKey, "jpg"),
        content_type: "image/jpeg",
        bytes: int(1_500_000, 6_000_000),
        width: portrait ? 3024 : 4032,
        height: portrait ? 4032 : 3024,
        taken_at: memoryDate
          ? `${memoryDate}T${String(int(7, 22)).padStart(2, "0")}:${String(int(0, 59)).padStart(2, "0")}:00`
          : null,
        placeholder: Buffer.from(hex(24), "hex").toString("base64"),
        latitude: null,
        longitude: null,
        created_at: new Date(uploadedMs).toISOString(),
        ...stillColumns,
        // Drawn from the memory's own stream above all the same, so the collection is one with or without files.
        ...photoFileOf?.(i * 2 + position),
      });
    }
    if (batch.memories.length === batchSize) {
      yield batch;
      batch = { memories: [], tags: [], photos: [] };
    }
  }
  if (batch.memories.length > 0) yield batch;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

const tables = ["memories", "memory_tags", "photos"] as const;

/** Seconds each part of a load took: writing the rows, creating the indexes, the rest (full-text index, or VACUUM ANALYZE). */
export interface GrowPhases {
  rows: number;
  indexes: number;
  after: number;
}

function phaseClock(): { lap(): number } {
  let last = performance.now();
  return {
    lap: () => {
      const now = performance.now();
      const seconds = Math.round((now - last) / 100) / 10;
      last = now;
      return seconds;
    },
  };
}

/** Adds memories `from` to `to` to a SQLite file the server has migrated (and is not running on). */
export function growSqlite(file: string, from: number, to: number, userIds: string[], photoFileOf?: PhotoFileOf): GrowPhases {
  const db = new SQLite(file);
  try {
    // This connection only: the seed need not survive a power cut; the server's own settings stay.
    db.pragma("synchronous = OFF");
    db.pragma("foreign_keys = ON");
    db.pragma("cache_size = -262144");
    const indexes = db
      .prepare(
        `select name, sql from sqlite_master where type = 'index' and sql is not null and tbl_name in (${tables.map(() => "?").join(", ")})`,
      )
      .all(...tables) as { name: string; sql: string }[];
    const ftsTrigger = db
      .prepare("select sql from sqlite_master where type = 'trigger' and name = 'memories_search_insert'")
      .get() as { sql: string } | undefined;
    if (!ftsTrigger) throw new Error("the migrations' full-text trigger memories_search_insert is missing");
    for (const index of indexes) db.exec(`drop index ${index.name}`);
    db.exec("drop trigger memories_search_insert");
    const { seeded } = db.prepare("select coalesce(max(rowid), 0) as seeded from memories").get() as { seeded: number };
    const statements = new Map<string, SQLite.Statement>();
    const insert = (table: string, rows: object[]) => {
      if (rows.length === 0) return;
      let statement = statements.get(table);
      if (!statement) {
        const columns = Object.keys(rows[0]!);
        statement = db.prepare(`insert into ${table} (${columns.join(", ")}) values (${columns.map((c) => `@${c}`).join(", ")})`);
        statements.set(table, statement);
      }
      for (const row of rows) statement.run(row);
    };
    const write = db.transaction((batch: LifetimeBatch) => {
      insert("memories", batch.memories);
      insert("memory_tags", batch.tags);
      insert("photos", batch.photos);
    });
    const clock = phaseClock();
    for (const batch of lifetimeBatches(from, to, userIds, 20_000, photoFileOf)) write(batch);
    const rows = clock.lap();
    for (const index of indexes) db.exec(index.sql);
    const created = clock.lap();
    db.exec(ftsTrigger.sql);
    // The new memories into the full-text index, under the rowids the trigger would have given
    // them (filed by day), then merged into one segment as a rebuild would leave it.
    db.prepare(
      `insert into memories_search(rowid, search_text) select ${searchRowidSql("memories")}, search_text from memories where rowid > ?`,
    ).run(seeded);
    db.exec("insert into memories_search(memories_search) values ('optimize')");
    db.pragma("wal_checkpoint(TRUNCATE)");
    return { rows, indexes: created, after: clock.lap() };
  } finally {
    db.close();
  }
}

/** Adds memories `from` to `to` to a PostgreSQL database the server has migrated, 5,000 a statement (arrays unnested). */
export async function growPostgres(
  url: string,
  from: number,
  to: number,
  userIds: string[],
  photoFileOf?: PhotoFileOf,
): Promise<GrowPhases> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin");
    await client.query("set local synchronous_commit = off");
    await client.query("set local maintenance_work_mem = '256MB'");
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `select indexrelid::regclass::text as name, pg_get_indexdef(indexrelid) as definition from pg_index
        where indrelid = any($1::regclass[]) and not exists (select 1 from pg_constraint where conindid = indexrelid)`,
      [tables],
    );
    for (const index of indexes) await client.query(`drop index ${index.name}`);
    const insert = (table: string, rows: object[]) => insertUnnested(client, table, rows);
    const clock = phaseClock();
    for (const batch of lifetimeBatches(from, to, userIds, 5_000, photoFileOf)) {
      await insert("memories", batch.memories);
      await insert("memory_tags", batch.tags);
      await insert("photos", batch.photos);
    }
    const rows = clock.lap();
    for (const index of indexes) await client.query(index.definition);
    await client.query("commit");
    const created = clock.lap();
    // As autovacuum would after a bulk load: statistics, pages marked all-visible, and the row
    // versions left by the triggers' counters (memory_stats, memory_months, memory_tag_counts:
    // updated once per statement of the load) cleared. Every table of the database.
    await client.query("vacuum (analyze)");
    await client.query("checkpoint");
    return { rows, indexes: created, after: clock.lap() };
  } finally {
    await client.end();
  }
}
