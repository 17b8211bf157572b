// Deterministic seed data for the memories benchmark, written straight into the database
// (the HTTP API would take far too long for 100,000 memories). Rows are the server's own row
// types (apps/server/src/db/schema.ts), with `sort_key` and `search_text` made by
// the repository's own `sortKey` and `memorySearchText` and photo keys by the upload's `derivativeKey` and `displayKey`;
// the migrations' triggers fill the rest.
import SQLite from "better-sqlite3";
import type { Selectable } from "kysely";
import pg from "pg";
import type { MemoryRow, MemoryTagsTable, PhotoRow } from "../apps/server/src/db/schema";
import { memorySearchText } from "../apps/server/src/lib/search-text";
import { gridCell } from "../apps/server/src/lib/place-grid";
import { placeKeyOf, sortKey } from "../apps/server/src/modules/memories/memories.repository";
import { derivativeKey, displayKey } from "../apps/server/src/modules/photos/photo-key";
import { stillColumns } from "../apps/server/src/modules/photos/photos.service";

/** Words searched for by the benchmark: each is put into ~1% of memories and appears nowhere else. */
export const searchWords = ["lighthouse", "picnic", "fireworks", "grandma"];
/** Tags filtered on by the benchmark: each is on ~1% of memories. */
export const filterTags = ["Wedding", "camping", "Road trip", "grandpa"];
const rareShare = 0.01;
/** Memories with a place: most around a few dozen cities a couple goes back to, some anywhere on land or sea. */
export const placedShare = 0.3;
/** [name, country, latitude, longitude]: where the placed memories gather, the first ones most. */
export const seedCities: readonly [string, string, number, number][] = [
  ["Lisbon", "PT", 38.7223, -9.1393],
  ["Sintra", "PT", 38.8029, -9.3817],
  ["Porto", "PT", 41.1579, -8.6291],
  ["Paris", "FR", 48.8566, 2.3522],
  ["London", "GB", 51.5072, -0.1276],
  ["Berlin", "DE", 52.52, 13.405],
  ["Rome", "IT", 41.9028, 12.4964],
  ["Madrid", "ES", 40.4168, -3.7038],
  ["Amsterdam", "NL", 52.3676, 4.9041],
  ["Kraków", "PL", 50.0647, 19.945],
  ["New York", "US", 40.7128, -74.006],
  ["San Francisco", "US", 37.7749, -122.4194],
  ["Mexico City", "MX", 19.4326, -99.1332],
  ["Rio de Janeiro", "BR", -22.9068, -43.1729],
  ["Buenos Aires", "AR", -34.6037, -58.3816],
  ["Cape Town", "ZA", -33.9249, 18.4241],
  ["Cairo", "EG", 30.0444, 31.2357],
  ["Istanbul", "TR", 41.0082, 28.9784],
  ["Tokyo", "JP", 35.6762, 139.6503],
  ["Kyoto", "JP", 35.0116, 135.7681],
  ["Seoul", "KR", 37.5665, 126.978],
  ["Bangkok", "TH", 13.7563, 100.5018],
  ["Sydney", "AU", -33.8688, 151.2093],
  ["Auckland", "NZ", -36.8485, 174.7633],
  ["Suva", "FJ", -18.1248, 178.4501],
  ["Reykjavík", "IS", 64.1466, -21.9426],
];

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
const tagPool = [
  "Family",
  "travel",
  "food",
  "friends",
  "kids",
  "holiday",
  "home",
  "birthday",
  "summer",
  "winter",
  "beach",
  "music",
  "hiking",
  "garden",
  "pets",
  "school",
  "work",
  "concert",
  "christmas",
  "sunday",
  "city",
  "nature",
  "Rome",
  "Paris",
  "Berlin",
  "sport",
  "cooking",
  "Books",
  "rain",
  "snow",
  "first time",
  "anniversary",
  "museum",
  "coffee",
  "bike",
  "train",
  "lake",
  "mountains",
  "night",
  "spring",
  "autumn",
  "market",
  "cousins",
  "neighbours",
  "party",
  "baby",
  "games",
  "film",
  "sea",
  "island",
];

for (const word of searchWords) {
  const clash = [...vocabulary, ...tagPool, ...filterTags].find((other) => other.toLowerCase().includes(word));
  if (clash) throw new Error(`search word ${word} clashes with ${clash}`);
}

/** mulberry32: small, fast, deterministic. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A tag row as the repository writes it; the tag's copy of the memory's `sort_key` is the triggers' to fill. */
export type SeedTag = Omit<Selectable<MemoryTagsTable>, "sort_key">;
export interface SeedBatch {
  memories: MemoryRow[];
  tags: SeedTag[];
  photos: PhotoRow[];
}

/**
 * `count` memories by `userIds` in turn, in batches of `batchSize`: created over the last three
 * years, dated over twenty (5% undated), ~3 tags (1–5) and ~2 photos (0–4) each.
 */
export function* seedBatches(count: number, userIds: string[], batchSize: number, seed = 0x5eed): Generator<SeedBatch> {
  const random = prng(seed);
  const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const hex = (bytes: number) => {
    let out = "";
    while (out.length < bytes * 2) out += (Math.floor(random() * 2 ** 32) >>> 0).toString(16).padStart(8, "0");
    return out.slice(0, bytes * 2);
  };
  const uuid = () => {
    const h = hex(16);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${"89ab"[int(0, 3)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  };
  const words = (n: number) => Array.from({ length: n }, () => pick(vocabulary));
  const sentence = () => {
    const list = words(int(6, 14));
    list[0] = capitalize(list[0]!);
    return `${list.join(" ")}.`;
  };
  const dateStart = Date.UTC(2006, 0, 1);
  const dateSpan = Date.UTC(2026, 0, 1) - dateStart;
  const secondsPerMemory = (3 * 365 * 86_400) / count;
  let createdMs = Date.UTC(2023, 10, 1);

  let batch: SeedBatch = { memories: [], tags: [], photos: [] };
  for (let i = 0; i < count; i += 1) {
    const id = uuid();
    const userId = userIds[i % userIds.length]!;
    createdMs += Math.floor(random() * 2 * secondsPerMemory * 1000);
    const createdAt = new Date(createdMs).toISOString();
    const memoryDate = random() < 0.05 ? null : new Date(dateStart + Math.floor(random() * dateSpan)).toISOString().slice(0, 10);

    const title = words(int(2, 6));
    title[0] = capitalize(title[0]!);
    const content = random() < 0.1 ? null : Array.from({ length: int(1, 4) }, sentence);
    for (const word of searchWords) {
      if (random() >= rareShare) continue;
      if (content && random() < 0.7) {
        const at = int(0, content.length - 1);
        const parts = content[at]!.split(" ");
        parts.splice(int(1, parts.length - 1), 0, word);
        content[at] = parts.join(" ");
      } else {
        title.splice(int(1, title.length), 0, word);
      }
    }

    const tags: string[] = [];
    const keys = new Set<string>();
    const addTag = (tag: string) => {
      if (keys.has(tag.toLowerCase())) return;
      keys.add(tag.toLowerCase());
      tags.push(tag);
    };
    for (const tag of filterTags) if (random() < rareShare) addTag(tag);
    const wanted = int(1, 5);
    // Skewed towards the front of the pool: a few tags are common, most are rarer.
    while (tags.length < wanted) addTag(tagPool[Math.floor(random() ** 2 * tagPool.length)]!);

    let place: { name: string; latitude: number; longitude: number; country_code: string | null } | null = null;
    if (random() < placedShare) {
      if (random() < 0.9) {
        // Skewed towards the first cities, a few kilometres around each.
        const [name, country, latitude, longitude] = seedCities[Math.floor(random() ** 2 * seedCities.length)]!;
        place = {
          name,
          latitude: latitude + (random() - 0.5) * 0.2,
          longitude: longitude + (random() - 0.5) * 0.2,
          country_code: country,
        };
      } else {
        place = {
          name: `Somewhere ${int(1, 500)}`,
          latitude: random() * 140 - 70,
          longitude: random() * 360 - 180,
          country_code: null,
        };
      }
    }
    const cell = place ? gridCell(place.latitude, place.longitude) : null;
    const fields = { title: title.join(" "), content: content ? content.join(" ") : null, tags, place };
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
      sort_key: sortKey(memoryDate, createdAt, id),
      search_text: memorySearchText(fields),
      // As the repository's placeColumns writes them.
      place_name: place?.name ?? null,
      place_latitude: place?.latitude ?? null,
      place_longitude: place?.longitude ?? null,
      place_country: place?.country_code ?? null,
      place_key: place ? placeKeyOf(place.name) : null,
      place_x: cell?.x ?? null,
      place_y: cell?.y ?? null,
    });
    tags.forEach((tag, position) => batch.tags.push({ memory_id: id, position, tag, tag_key: tag.toLowerCase() }));

    const photoCount = int(0, 4);
    for (let position = 0; position < photoCount; position += 1) {
      const uploadedMs = createdMs - int(5, 600) * 1000;
      // As originalPhotoKey names an upload, with the seed's random bits.
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
        taken_at:
          memoryDate && random() < 0.8
            ? `${memoryDate}T${String(int(7, 22)).padStart(2, "0")}:${String(int(0, 59)).padStart(2, "0")}:${String(int(0, 59)).padStart(2, "0")}`
            : null,
        placeholder: Buffer.from(hex(24), "hex").toString("base64"),
        latitude: null,
        longitude: null,
        created_at: new Date(uploadedMs).toISOString(),
        ...stillColumns,
      });
    }

    if (batch.memories.length === batchSize) {
      yield batch;
      batch = { memories: [], tags: [], photos: [] };
    }
  }
  if (batch.memories.length > 0) yield batch;
}

export interface SeedCounts {
  memories: number;
  tags: number;
  photos: number;
}

function tally(counts: SeedCounts, batch: SeedBatch): void {
  counts.memories += batch.memories.length;
  counts.tags += batch.tags.length;
  counts.photos += batch.photos.length;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A table's columns, as the seed's rows (the server's row types) name them. */
function columnsOf(rows: object[]): string[] {
  return rows.length === 0 ? [] : Object.keys(rows[0]!);
}

/** Seeds a SQLite file the server has migrated (and is not running on). */
export function seedSqlite(file: string, count: number, userIds: string[]): SeedCounts {
  const db = new SQLite(file);
  try {
    // This connection only: the seed need not survive a power cut; the server's own settings stay.
    db.pragma("synchronous = OFF");
    db.pragma("foreign_keys = ON");
    const statements = new Map<string, SQLite.Statement>();
    const insert = (table: string, rows: object[]) => {
      if (rows.length === 0) return;
      let statement = statements.get(table);
      if (!statement) {
        const columns = columnsOf(rows);
        statement = db.prepare(`insert into ${table} (${columns.join(", ")}) values (${columns.map((c) => `@${c}`).join(", ")})`);
        statements.set(table, statement);
      }
      for (const row of rows) statement.run(row);
    };
    const write = db.transaction((batch: SeedBatch) => {
      insert("memories", batch.memories);
      insert("memory_tags", batch.tags);
      insert("photos", batch.photos);
    });
    const counts = { memories: 0, tags: 0, photos: 0 };
    for (const batch of seedBatches(count, userIds, 10_000)) {
      write(batch);
      tally(counts, batch);
    }
    db.pragma("wal_checkpoint(TRUNCATE)");
    return counts;
  } finally {
    db.close();
  }
}

const pgTypes: Record<string, string> = {
  version: "int",
  place_latitude: "float8",
  place_longitude: "float8",
  latitude: "float8",
  longitude: "float8",
  place_x: "int",
  place_y: "int",
  duration_ms: "int",
  web_bytes: "bigint",
  motion_bytes: "bigint",
  position: "int",
  bytes: "int",
  width: "int",
  height: "int",
  memory_date: "date",
  created_at: "timestamptz",
  updated_at: "timestamptz",
};

/** Inserts rows into a PostgreSQL table in one statement: one array parameter per column, unnested. */
export async function insertUnnested(client: pg.Client, table: string, rows: object[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = columnsOf(rows);
  const arrays = columns.map((column) => rows.map((row) => (row as Record<string, unknown>)[column]));
  const casts = columns.map((column, i) => `$${i + 1}::${pgTypes[column] ?? "text"}[]`);
  await client.query(`insert into ${table} (${columns.join(", ")}) select * from unnest(${casts.join(", ")})`, arrays);
}

/**
 * Seeds a PostgreSQL database the server has migrated, 1,000 memories per statement (one array
 * parameter per column, unnested). Then VACUUM ANALYZE, as autovacuum would after a bulk load.
 */
export async function seedPostgres(url: string, count: number, userIds: string[]): Promise<SeedCounts> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const insert = (table: string, rows: object[]) => insertUnnested(client, table, rows);
    await client.query("begin");
    await client.query("set local synchronous_commit = off");
    const counts = { memories: 0, tags: 0, photos: 0 };
    for (const batch of seedBatches(count, userIds, 1_000)) {
      tally(counts, batch);
      await insert("memories", batch.memories);
      await insert("memory_tags", batch.tags);
      await insert("photos", batch.photos);
    }
    await client.query("commit");
    // VACUUM only marks pages all-visible (index-only scans) once no other transaction on the
    // cluster could still miss the seed; with other work running that can take a retry or two.
    for (let attempt = 1; ; attempt += 1) {
      for (const table of ["memories", "memory_tags", "photos"]) await client.query(`vacuum (analyze) ${table}`);
      const { rows } = await client.query<{ relname: string; relpages: number; relallvisible: number }>(
        "select relname, relpages, relallvisible from pg_class where relname in ('memories', 'memory_tags', 'photos')",
      );
      if (rows.every((row) => row.relallvisible >= row.relpages)) break;
      if (attempt === 5) {
        console.warn(`seed: tables not all-visible after ${attempt} vacuums: ${JSON.stringify(rows)}`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    // Writes the load's dirty pages now, instead of PostgreSQL's checkpointer spreading them over
    // the next minutes, while the benchmark measures.
    await client.query("checkpoint");
    return counts;
  } finally {
    await client.end();
  }
}
