import { randomUUID } from "node:crypto";
import type { MemoryPage } from "@memory-box/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { newUser } from "../auth/core/account-rules";
import { memorySearchText, searchWords } from "../../lib/search-text";
import { type ListFilter, MemoriesRepository, type MemoryFields, type NewMemory, sortKey } from "./memories.repository";
import { PostgresWordSearch } from "./postgres-search";

/**
 * PostgreSQL searches through a dictionary of the memories' words, kept by triggers, and pages a
 * search with many matches through bands of the listing order (ADR 0081); SQLite through its
 * FTS5 table. Either way a search must find exactly the memories whose text holds every word,
 * after any write, in listing order, with their exact count, whichever way the read goes: every
 * match kept, or too many to keep (the first ones, then page by page).
 */

/** The memories of the collection: words shared, inside others, with punctuation, in other scripts. */
const collection: MemoryFields[] = [];
const months = ["2024-05", "2024-03", "2023-12", "2021-07", null] as const;
for (let index = 0; index < 60; index++) {
  const month = months[index % months.length]!;
  const words = [
    index % 2 === 0 ? "picnic" : "lunch",
    index % 5 === 0 ? "picnics." : "walk",
    index % 3 === 0 ? "sunny" : "grey",
    index % 7 === 0 ? "東京タワー" : "park",
    // "sunny" also inside "sunny," and "sunnyside": one memory may hold two of them.
    index % 4 === 1 ? "sunny," : index % 4 === 2 ? "sunnyside" : "calm",
    // A word of its own in each memory: "trail" is inside sixty words of the dictionary.
    `trail${index}`,
  ];
  collection.push({
    title: `Day ${index}`,
    content: index % 4 === 0 ? words.join("\t") : words.join("\n\n"),
    memory_date: month === null ? null : `${month}-${String((index % 27) + 1).padStart(2, "0")}`,
    tags: index % 6 === 0 ? ["Rock'n'Roll", "Zürich"] : [],
  });
}

/** Queries: one dictionary word, several, inside words, several query words, short words, punctuation, other scripts. */
const queries = [
  "grey",
  "sunny",
  "sunnyside",
  "picnic",
  "picnics",
  "pic",
  "icni",
  "PICNIC sunny",
  "picnic 東京",
  "pi",
  "sunny pi",
  "rock'n'roll zurich",
  "zürich",
  "picnics.",
  "タワー",
  "nowhere",
  "sunny nowhere",
  "trail",
  "trail1",
  "trail7 sunny",
];

describe.each(testEngines())("search by words, on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  let repository: MemoriesRepository;
  /** The memories as stored, by id: what the oracle searches. */
  const stored = new Map<string, { sortKey: string; text: string }>();

  const store = (id: string, createdAt: string, fields: MemoryFields) =>
    stored.set(id, { sortKey: sortKey(fields.memory_date, createdAt, id), text: memorySearchText(fields) });

  /** What a search must find, from the memories' text (ADR 0019): every word inside it, newest first. */
  const expected = (q: string) => {
    const words = searchWords(q);
    return [...stored]
      .filter(([, memory]) => words.every((word) => memory.text.includes(word)))
      .sort(([, a], [, b]) => (a.sortKey < b.sortKey ? 1 : -1))
      .map(([id]) => id);
  };

  /** Every page of a search through the repository's `page`, `limit` at a time. */
  const paged = async (filter: ListFilter, limit: number) => {
    const ids: string[] = [];
    let after: string | undefined;
    for (;;) {
      const { records, hasMore } = await repository.page(filter, after, limit);
      ids.push(...records.map((record) => record.id));
      if (!hasMore) return ids;
      after = records.at(-1)!.sort_key;
    }
  };

  /** PostgreSQL: the dictionary holds each word with the number of memories holding it, as counting them gives. */
  const expectDictionaryExact = async () => {
    if (engine !== "postgres") return;
    const { rows: kept } = await sql<{ word: string; count: string }>`
      select word, count from search_words where count > 0 order by word`.execute(database.db);
    const { rows: counted } = await sql<{ word: string; count: string }>`
      select word, count(distinct memories.id) as count from memories, unnest(memory_search_words(memories.search_text)) as word
      group by word order by word`.execute(database.db);
    expect(kept.map((row) => [row.word, Number(row.count)])).toEqual(counted.map((row) => [row.word, Number(row.count)]));
  };

  const editorId = randomUUID();

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    const now = new Date().toISOString();
    await database.db
      .insertInto("users")
      .values({ ...newUser("ann@memory-box.test", null, {}, now), id: editorId })
      .execute();
    repository = new MemoriesRepository(database.db, engine);
    // The archive import's way in: many rows a statement.
    const memories: NewMemory[] = collection.map((fields, index) => ({
      ...fields,
      id: randomUUID(),
      userId: null,
      createdAt: `2026-01-01T00:00:${String(index).padStart(2, "0")}.000Z`,
    }));
    await repository.transaction((trx) => repository.insertMany(memories, trx));
    for (const memory of memories) store(memory.id, memory.createdAt, memory);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("finds, counts and lists exactly the memories holding every word", async () => {
    await expectDictionaryExact();
    for (const q of queries) {
      const ids = expected(q);
      expect((await repository.searchMatches({ q }, 2_000))?.ids, q).toEqual(ids);
      expect(await repository.countMatched({ q }), q).toBe(ids.length);
      expect(await paged({ q }, 7), q).toEqual(ids);
    }
    if (engine === "postgres") {
      // Words split at tabs and blank lines too: none holds whitespace, none is empty.
      const { rows } = await sql<{ word: string }>`select word from search_words where word ~ '\\s' or word = ''`.execute(
        database.db,
      );
      expect(rows).toEqual([]);
    }
  });

  it("gives the same first matches, count and pages when there are too many to keep", async () => {
    for (const q of queries) {
      const ids = expected(q);
      const found = await repository.searchMatches({ q }, 3);
      expect(found?.matched, q).toBe(ids.length);
      if (ids.length <= 3) {
        expect(found?.ids, q).toEqual(ids);
      } else {
        // The first ones in order: on PostgreSQL at least a page's worth; SQLite's index filed by
        // day lists none and reads each page from the index (ADR 0079), unless a short word or
        // other filter made it read them all.
        if (engine === "postgres") expect(found!.ids.length, q).toBeGreaterThan(0);
        expect(found!.ids, q).toEqual(ids.slice(0, found!.ids.length));
      }
    }
  });

  it.runIf(engine === "postgres")(
    "pages through bands of the listing order as through every match, from any memory on",
    async () => {
      // Tiny bands (a month or so each), even for few matches: every band boundary and the
      // undated memories are crossed.
      const tunings = [
        { margin: 1, maxMemories: 3, entriesPerRow: Infinity },
        { margin: 3, maxMemories: 40_000, entriesPerRow: Infinity },
      ];
      for (const tuning of tunings) {
        for (const q of ["sunny", "picnics", "picnic", "icni", "trail"]) {
          const ids = expected(q);
          const search = (await PostgresWordSearch.of(database.db, searchWords(q), tuning))!;
          const all = await search.page(undefined, 1_000);
          expect(
            all.map((match) => match.id),
            q,
          ).toEqual(ids);
          for (const [position, match] of all.entries()) {
            const next = await search.page(match.sort_key, 4);
            expect(
              next.map((row) => row.id),
              `${q} after ${position}`,
            ).toEqual(ids.slice(position + 1, position + 5));
          }
          // The first matches of a search too large to keep come from the bands too.
          // (At most `max + 1`: here 2.)
          expect((await search.matches(1, 5)).ids, q).toEqual(ids.slice(0, 2));
        }
      }
    },
  );

  it("finds a word a write adds, and no longer one it takes away", async () => {
    const id = randomUUID();
    const createdAt = "2026-02-01T00:00:00.000Z";
    const first: MemoryFields = {
      title: "Lighthouse keeper",
      content: "Storm at night",
      memory_date: "2025-01-02",
      tags: ["coast"],
    };
    await repository.transaction((trx) => repository.insert({ ...first, id, userId: null, createdAt }, trx));
    store(id, createdAt, first);
    expect(await repository.countMatched({ q: "keeper" })).toBe(1);
    expect((await repository.searchMatches({ q: "coast storm" }, 2_000))?.ids).toEqual([id]);
    await expectDictionaryExact();

    // An edit of the title, the description and the tags.
    const row = (await repository.findById(id))!;
    const edited: MemoryFields = { title: "Harbour master", content: "Calm at dawn", memory_date: "2025-01-02", tags: ["sea"] };
    expect(await repository.transaction((trx) => repository.update(row, edited, { userId: editorId, at: createdAt }, trx))).toBe(
      true,
    );
    store(id, createdAt, edited);
    for (const gone of ["keeper", "lighthouse", "storm", "coast"]) {
      expect(await repository.countMatched({ q: gone }), gone).toBe(0);
      expect((await repository.searchMatches({ q: gone }, 2_000))?.ids, gone).toEqual([]);
      expect(await paged({ q: gone }, 5), gone).toEqual([]);
    }
    for (const added of ["harbour", "master", "dawn", "sea", "calm harb"]) {
      expect(await repository.countMatched({ q: added }), added).toBe(1);
      expect((await repository.searchMatches({ q: added }, 2_000))?.ids, added).toEqual([id]);
    }
    // "sea" is inside no other memory's words but the edited one's.
    expect(expected("sea")).toEqual([id]);
    await expectDictionaryExact();

    // A change of a memory that leaves its text as it is (its version, its cover) changes no count.
    expect(await repository.transaction((trx) => repository.touch(id, { userId: editorId, at: createdAt }, {}, trx))).toBe(true);
    await expectDictionaryExact();

    expect(await repository.transaction((trx) => repository.delete(id, trx))).toBe(true);
    stored.delete(id);
    expect(await repository.countMatched({ q: "harbour" })).toBe(0);
    expect((await repository.searchMatches({ q: "harbour" }, 2_000))?.ids).toEqual([]);
    await expectDictionaryExact();
    for (const q of queries) expect((await repository.searchMatches({ q }, 2_000))?.ids, q).toEqual(expected(q));
  });
});

/** The server with every search's matches kept, and with none kept (too many for a limit of 3). */
const keptOrNot = testEngines().flatMap((engine) => [[engine, undefined] as const, [engine, 3] as const]);

describe.each(keptOrNot)("a search's pages on %s, keeping at most %s matches", (engine, maxKeptSearchMatches) => {
  let testApp: TestApp;
  let ann: TestMember;
  /** The memories as created, oldest first: each one's title and the text it is found by. */
  const lanterns: { title: string; text: string; dated: boolean }[] = [];

  beforeAll(async () => {
    testApp = await createTestApp(engine, {
      env: { AUTH_RATE_LIMITS: "false" },
      ...(maxKeptSearchMatches === undefined ? {} : { maxKeptSearchMatches }),
    });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    for (let index = 0; index < 23; index++) {
      const payload = {
        // "lantern" alone, with a comma, inside "lanterns": three words of the dictionary.
        title: `${["Lantern", "Lantern,", "Lanterns"][index % 3]} ${index}`,
        content: index % 4 === 0 ? "Lantern festival" : "By the river",
        memory_date: index % 5 === 0 ? null : `${1990 + index}-0${(index % 9) + 1}-15`,
      };
      const response = await testApp.app.inject({ method: "POST", url: "/api/v1/memories", headers: ann.headers, payload });
      expect(response.statusCode).toBe(201);
      lanterns.push({
        title: payload.title,
        text: memorySearchText({ ...payload, tags: [] }),
        dated: payload.memory_date !== null,
      });
    }
    await testApp.app.inject({ method: "POST", url: "/api/v1/memories", headers: ann.headers, payload: { title: "Candle" } });
  });
  afterAll(() => testApp.close());

  it("gives every match once, in listing order, with the same count on every page", async () => {
    const everyPage = async (q: string, limit: number) => {
      const titles: string[] = [];
      const counts = new Set<number>();
      let cursor: string | null = null;
      do {
        const url: string = `/api/v1/memories?q=${encodeURIComponent(q)}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`;
        const page = (await testApp.app.inject({ method: "GET", url, headers: ann.headers })).json<MemoryPage>();
        titles.push(...page.items.map((memory) => memory.title));
        counts.add(page.matched);
        cursor = page.next_cursor;
      } while (cursor);
      return { titles, counts: [...counts] };
    };
    // Dated newest first (the years grow as they were created), then the undated, newest created first.
    const inListingOrder = [
      ...lanterns.filter((memory) => memory.dated).reverse(),
      ...lanterns.filter((memory) => !memory.dated).reverse(),
    ];
    for (const q of ["lantern", "LANTERNS", "antern festival", "lantern,"]) {
      const expected = inListingOrder
        .filter((memory) => searchWords(q).every((word) => memory.text.includes(word)))
        .map((memory) => memory.title);
      for (const limit of [4, 30])
        expect(await everyPage(q, limit), `${q} by ${limit}`).toEqual({ titles: expected, counts: [expected.length] });
    }
  });
});
