import { type Memory, MemoryPage } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../db/database";
import { createMember, type TestMember } from "../../../test/members";
import { memoryRow } from "../../../test/memory-rows";
import { photoRow } from "../../../test/photo-rows";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { sortKey } from "./memories.repository";

/**
 * Counts and tag-filter pages are served from `memory_stats` and `memory_tags.sort_key` (kept by
 * triggers), and whole pages and counts from caches keyed by `memory_stats.generation`: they
 * must stay exactly what a scan of the collection would answer, through every kind of change
 * (authors' names and attached photos included), on every process.
 */
describe.each(testEngines())("listing counts and tag pages on %s", (engine) => {
  let testApp: TestApp;
  /** A second server process on the same database, with its own caches. */
  let otherApp: TestApp;
  let ann: TestMember;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    otherApp = await createTestApp(engine, {
      env: { AUTH_RATE_LIMITS: "false" },
      sharedDatabase: testApp.config.database,
    });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
  });
  afterAll(async () => {
    await otherApp.close();
    await testApp.close();
  });

  const call = async (app: TestApp, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) => {
    const response = await app.app.inject({
      method,
      url,
      headers: ann.headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response;
  };
  const create = async (body: Record<string, unknown>, app = testApp) =>
    (await call(app, "POST", "/api/v1/memories", body)).json<Memory>();
  const edit = async (memory: Memory, body: Record<string, unknown>, app = testApp) =>
    (
      await call(app, "PUT", `/api/v1/memories/${memory.id}`, {
        title: memory.title,
        content: memory.content,
        memory_date: memory.memory_date,
        tags: memory.tags,
        ...body,
      })
    ).json<Memory>();
  const remove = async (memory: Memory, app = testApp) => call(app, "DELETE", `/api/v1/memories/${memory.id}`);
  const list = async (query: Record<string, string>, app = testApp) =>
    (await call(app, "GET", `/api/v1/memories?${new URLSearchParams(query).toString()}`)).json<MemoryPage>();
  /** Every page of a listing, following the cursor. */
  const walkItems = async (query: Record<string, string>, limit: number, app = testApp) => {
    const items: Memory[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: MemoryPage = await list({ ...query, limit: String(limit), ...(cursor ? { cursor } : {}) }, app);
      expect(page.items.length).toBeLessThanOrEqual(limit);
      items.push(...page.items);
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor && pages < 50);
    return items;
  };
  const walk = async (query: Record<string, string>, limit: number, app = testApp) =>
    (await walkItems(query, limit, app)).map((memory) => memory.title);
  /** The same answer computed the slow way: every memory in listing order, filtered here. */
  const expected = async (filter: { tag?: string; q?: string }) =>
    (await walkItems({}, 100))
      .filter((memory) => !filter.tag || (memory.tags ?? []).some((tag) => tag.toLowerCase() === filter.tag!.toLowerCase()))
      .filter(
        (memory) =>
          !filter.q ||
          [memory.title, memory.content ?? "", ...(memory.tags ?? [])].join("\n").toLowerCase().includes(filter.q.toLowerCase()),
      )
      .map((memory) => memory.title);
  const counts = async (query: { tag?: string; q?: string }, app = testApp) => {
    const { matched, total } = await list({ ...query, limit: "1" }, app);
    return { matched, total };
  };

  it("counts every memory, and each filter's matches, through creates, edits and deletes", async () => {
    expect(await counts({})).toEqual({ matched: 0, total: 0 });
    const hike = await create({
      title: "Counting hike",
      content: "Ridge walk",
      memory_date: "2024-03-01",
      tags: ["Hiking", "spring"],
    });
    const swim = await create({ title: "Counting swim", content: "Cold lake", memory_date: "2024-07-01", tags: ["summer"] });
    await create({ title: "Counting picnic", content: "Ridge picnic", memory_date: null, tags: ["hiking", "summer"] });
    // Counted once, then answered from the cache: both must follow every change below.
    expect(await counts({})).toEqual({ matched: 3, total: 3 });
    expect(await counts({ tag: "HIKING" })).toEqual({ matched: 2, total: 3 });
    expect(await counts({ q: "ridge" })).toEqual({ matched: 2, total: 3 });
    expect(await counts({ q: "ridge", tag: "summer" })).toEqual({ matched: 1, total: 3 });
    expect(await counts({ q: "rid" })).toEqual({ matched: 2, total: 3 });
    // Filters that a careless cache key could confuse with one another.
    expect(await counts({ tag: "hiking", q: "hike\nridge" })).toEqual({ matched: 1, total: 3 });
    expect(await counts({ tag: "hiking\nhike", q: "ridge" })).toEqual({ matched: 0, total: 3 });

    // A search word added by an edit, and a tag renamed.
    await edit(swim, { content: "Cold lake below the ridge" });
    expect(await counts({ q: "ridge" })).toEqual({ matched: 3, total: 3 });
    expect(await counts({ q: "ridge", tag: "summer" })).toEqual({ matched: 2, total: 3 });
    await edit(hike, { tags: ["Trekking", "spring"] });
    expect(await counts({ tag: "hiking" })).toEqual({ matched: 1, total: 3 });
    expect(await counts({ tag: "trekking" })).toEqual({ matched: 1, total: 3 });
    expect((await list({ tag: "Trekking" })).items.map((memory) => memory.title)).toEqual(["Counting hike"]);
    expect((await list({ tag: "hiking" })).items.map((memory) => memory.title)).toEqual(["Counting picnic"]);

    // A rejected edit changes nothing.
    const stale = await testApp.app.inject({
      method: "PUT",
      url: `/api/v1/memories/${hike.id}`,
      headers: { ...ann.headers, "if-match": '"v1"' },
      payload: { title: "Stale" },
    });
    expect(stale.statusCode).toBe(409);
    expect(await counts({ tag: "trekking" })).toEqual({ matched: 1, total: 3 });

    await remove(swim);
    expect(await counts({})).toEqual({ matched: 2, total: 2 });
    expect(await counts({ q: "ridge" })).toEqual({ matched: 2, total: 2 });
    expect(await counts({ tag: "summer" })).toEqual({ matched: 1, total: 2 });
    const filters: { tag?: string; q?: string }[] = [
      { tag: "hiking" },
      { tag: "trekking" },
      { q: "ridge" },
      { q: "ridge", tag: "summer" },
      { q: "ri" },
    ];
    for (const query of filters) {
      expect((await counts(query)).matched).toBe((await expected(query)).length);
    }
  });

  it("agrees across server processes: a change made on one is counted at once on the other", async () => {
    const before = await counts({}, otherApp);
    const cachedOnOther = await counts({ tag: "crossing" }, otherApp);
    expect(cachedOnOther.matched).toBe(0);
    const crossing = await create({ title: "Crossing over", tags: ["crossing"] }, testApp);
    expect(await counts({ tag: "crossing" }, otherApp)).toEqual({ matched: 1, total: before.total + 1 });
    expect(await counts({ q: "crossing over" }, otherApp)).toEqual({ matched: 1, total: before.total + 1 });
    await edit(crossing, { title: "Crossed", tags: ["crossed"] }, otherApp);
    expect(await counts({ tag: "crossing" }, testApp)).toEqual({ matched: 0, total: before.total + 1 });
    expect(await counts({ q: "crossing over" }, testApp)).toEqual({ matched: 0, total: before.total + 1 });
    await remove(crossing, otherApp);
    expect(await counts({ tag: "crossed" }, testApp)).toEqual({ matched: 0, total: before.total });
  });

  it("walks a tag's pages in listing order, complete and without repeats, alone and with a search", async () => {
    // Several dates, a shared date, undated ones and memories without the tag in between.
    const dates = ["2021-05-01", null, "2023-01-15", "2023-01-15", "2019-12-31", null, "2023-01-15", "2025-02-02", "2020-06-06"];
    for (const [index, date] of dates.entries()) {
      await create({
        title: `Walk ${index}`,
        memory_date: date,
        content: index % 2 === 0 ? "even steps" : "odd steps",
        tags: index % 3 === 2 ? ["other"] : ["Walking", `w${index}`],
      });
    }
    const wanted = await expected({ tag: "walking" });
    expect(wanted.length).toBe(6);
    for (const limit of [1, 2, 4, 100]) {
      expect(await walk({ tag: "walking" }, limit)).toEqual(wanted);
      expect(await walk({ tag: "WALKING", q: "even" }, limit)).toEqual(await expected({ tag: "walking", q: "even" }));
    }
    // The tag's order is the listing's order restricted to it.
    const listing = await walk({}, 100);
    expect(wanted).toEqual(listing.filter((title) => wanted.includes(title)));
    expect((await list({ tag: "walking", limit: "2" })).matched).toBe(6);
  });

  it("moves a memory between a tag's pages when its date changes", async () => {
    const first = (await list({ tag: "walking", limit: "2" })).items;
    const memory = (await walkItems({ tag: "walking" }, 2)).at(-1)!;
    const last = memory.title;
    expect(first.map((item) => item.title)).not.toContain(last);

    const moved = await edit(memory, { memory_date: "2026-01-01" });
    expect((await list({ tag: "walking", limit: "2" })).items[0]?.title).toBe(last);
    expect(await walk({ tag: "walking" }, 2)).toEqual(await expected({ tag: "walking" }));

    // Into the middle (after the 2025 and the two 2023 ones), then back to the end (undated).
    const middle = await edit(moved, { memory_date: "2022-06-01" });
    const inTheMiddle = await walk({ tag: "walking" }, 2);
    expect(inTheMiddle).toEqual(await expected({ tag: "walking" }));
    expect(inTheMiddle.indexOf(last)).toBe(3);
    await edit(middle, { memory_date: null });
    const atTheEnd = await walk({ tag: "walking" }, 3);
    expect(atTheEnd).toEqual(await expected({ tag: "walking" }));
    expect(atTheEnd.at(-1)).toBe(last);
  });

  it("carries a kept search over its own process's writes exactly as a fresh search finds it", async () => {
    const searches: Record<string, string>[] = [
      { q: "lantern" },
      { q: "LANTERN ée" },
      { q: "lan" },
      { q: "lantern", tag: "glow" },
      { q: "ée ln" },
    ];
    const check = async () => {
      for (const search of searches) {
        const fresh = await walk(search, 100, otherApp);
        // Every page further down comes from the kept list (the first page's request finds it).
        expect(await walk(search, 2)).toEqual(fresh);
        expect((await list({ ...search, limit: "1" })).matched).toBe(fresh.length);
      }
    };
    const first = await create({ title: "Lantern one", memory_date: "2024-03-03", tags: ["glow"] });
    const second = await create({ title: "Lantern two", content: "Fée des lanternes", memory_date: null });
    await create({ title: "Dark room", content: "no light", memory_date: "2024-03-04" });
    await check();
    expect(await walk({ q: "lantern" }, 2)).toEqual(["Lantern one", "Lantern two"]);

    // Moves within a list, joins one, leaves one, is deleted; created into the middle.
    const moved = await edit(first, { memory_date: "1999-01-01" });
    await check();
    const renamed = await edit(second, { title: "Candle two", content: "Fée" });
    await check();
    await edit(moved, { tags: ["glow", "ée"], content: "lit" });
    await check();
    await create({ title: "Lantern three", content: "Lantern, ln, ée", memory_date: "2010-10-10", tags: ["GLOW"] });
    await check();
    await remove(renamed);
    await check();
    await remove(moved);
    await check();
  });

  it("keeps every tag row's sort_key equal to its memory's, and the total equal to a count", async () => {
    const database = openDatabase(testApp.config.database);
    try {
      const drift = await database.db
        .selectFrom("memory_tags")
        .innerJoin("memories", "memories.id", "memory_tags.memory_id")
        .select(["memory_tags.memory_id", "memory_tags.sort_key as copy", "memories.sort_key"])
        .whereRef("memory_tags.sort_key", "!=", "memories.sort_key")
        .execute();
      expect(drift).toEqual([]);
      const { count } = await database.db
        .selectFrom("memories")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .executeTakeFirstOrThrow();
      expect((await counts({})).total).toBe(Number(count));
    } finally {
      await database.destroy();
    }
  });

  it("stays right for rows written straight into the database, bypassing the server", async () => {
    const database = openDatabase(testApp.config.database);
    const before = await counts({});
    const id = "5e1d0c2b-0000-4000-8000-0000000000d1";
    const createdAt = "2026-01-02T03:04:05.000Z";
    try {
      await database.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("memories")
          .values(
            memoryRow({
              id,
              title: "Imported",
              memory_date: "2031-01-01",
              created_at: createdAt,
              search_text: "imported\n\nwalking",
            }),
          )
          .execute();
        // Without sort_key, as an import or the benchmark's seed writes them.
        await trx.insertInto("memory_tags").values({ memory_id: id, position: 0, tag: "Walking", tag_key: "walking" }).execute();
      });
      expect(await counts({})).toEqual({ matched: before.total + 1, total: before.total + 1 });
      const page = await list({ tag: "walking", limit: "1" });
      expect(page.items[0]?.title).toBe("Imported");
      expect(page.matched).toBe((await expected({ tag: "walking" })).length);

      await database.db
        .updateTable("memories")
        .set({ memory_date: null, sort_key: sortKey(null, createdAt, id) })
        .where("id", "=", id)
        .execute();
      expect((await walk({ tag: "walking" }, 2)).at(-1)).toBe("Imported");
      await database.db.deleteFrom("memories").where("id", "=", id).execute();
      expect(await counts({})).toEqual({ matched: before.total, total: before.total });
      expect(await walk({ tag: "walking" }, 2)).not.toContain("Imported");
    } finally {
      await database.destroy();
    }
  });

  it("shows an author's new name on pages answered before, on every process", async () => {
    const memory = await create({ title: "Named by its author" });
    const authorOf = async (app: TestApp) =>
      (await list({ q: "named by its author" }, app)).items.find((item) => item.id === memory.id)?.profiles?.display_name;
    expect(await authorOf(testApp)).toBe("Ann");
    expect(await authorOf(otherApp)).toBe("Ann");
    const renamed = await testApp.app.inject({
      method: "PUT",
      url: "/auth/v1/user",
      headers: ann.headers,
      payload: { data: { full_name: "Ann Lee" } },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(await authorOf(testApp)).toBe("Ann Lee");
    expect(await authorOf(otherApp)).toBe("Ann Lee");
  });

  it("shows a photo attached or detached straight in the database on pages answered before", async () => {
    const memory = await create({ title: "Photo added by an import" });
    const photosOf = async () =>
      (await list({ q: "photo added by an import" })).items
        .find((item) => item.id === memory.id)
        ?.photos.map((photo) => photo.id);
    expect(await photosOf()).toEqual([]);
    const database = openDatabase(testApp.config.database);
    try {
      const photo = importedPhoto(memory.id, ann.userId);
      await database.db.insertInto("photos").values(photo).execute();
      expect(await photosOf()).toEqual([photo.id]);
      await database.db.updateTable("photos").set({ memory_id: null, position: null }).where("id", "=", photo.id).execute();
      expect(await photosOf()).toEqual([]);
      await database.db.updateTable("photos").set({ memory_id: memory.id, position: 0 }).where("id", "=", photo.id).execute();
      expect(await photosOf()).toEqual([photo.id]);
      await database.db.deleteFrom("photos").where("id", "=", photo.id).execute();
      expect(await photosOf()).toEqual([]);
    } finally {
      await database.destroy();
    }
  });

  it("answers list pages that are exactly the contract's MemoryPage, each memory as its own route shows it", async () => {
    const memory = await create({
      title: "Contract check – Çà",
      content: null,
      memory_date: "2022-02-02",
      tags: ["Shape", "özel"],
    });
    const database = openDatabase(testApp.config.database);
    try {
      const photos = [
        importedPhoto(memory.id, ann.userId),
        { ...importedPhoto(memory.id, ann.userId), position: 1, display_key: null, taken_at: "2021-01-01T10:00:00" },
      ];
      // Stored out of order: a page lists them by position.
      await database.db.insertInto("photos").values([photos[1]!, photos[0]!]).execute();
    } finally {
      await database.destroy();
    }
    const single = (await call(testApp, "GET", `/api/v1/memories/${memory.id}`)).json<Memory>();
    expect(single.photos.length).toBe(2);
    const queries: Record<string, string>[] = [
      { limit: "100" },
      { tag: "ÖZEL" },
      { q: "contract cà" },
      { q: "check", tag: "shape" },
    ];
    for (const query of queries) {
      const page = await list(query);
      expect(MemoryPage.parse(page)).toEqual(page);
      expect(page.items.find((item) => item.id === memory.id)).toEqual(single);
    }
  });

  it("answers a page's photo URLs unchanged whatever the hour: they carry no expiry to re-sign (ADR 0018)", async () => {
    let clock = new Date("2031-03-04T10:15:00Z");
    const clocked = await createTestApp(engine, {
      env: { AUTH_RATE_LIMITS: "false" },
      sharedDatabase: testApp.config.database,
      now: () => clock,
    });
    const database = openDatabase(testApp.config.database);
    try {
      const memory = await create({ title: "Photo across the hours" });
      const photo = importedPhoto(memory.id, ann.userId);
      await database.db.insertInto("photos").values(photo).execute();
      const thumbnailUrl = async () => {
        const response = await clocked.app.inject({
          method: "GET",
          url: "/api/v1/memories?q=photo%20across%20the%20hours",
          headers: { authorization: `Bearer ${await tokenAt(clocked)}` },
        });
        expect(response.statusCode, response.body).toBe(200);
        return response.json<MemoryPage>().items[0]!.photos[0]!.thumbnail_url;
      };
      const first = await thumbnailUrl();
      expect(first).toBe(`/storage/v1/object/authenticated/memory-photos/${photo.thumbnail_key}`);
      clock = new Date("2031-03-04T11:00:01Z");
      expect(await thumbnailUrl()).toBe(first);
      clock = new Date("2031-03-05T10:15:00Z");
      expect(await thumbnailUrl()).toBe(first);
    } finally {
      await database.destroy();
      await clocked.close();
    }
  });
});

/** A photo row as an import would write it, attached to a memory. */
function importedPhoto(memoryId: string, ownerId: string) {
  return photoRow(`${ownerId}/${Date.now()}-${crypto.randomUUID().slice(0, 8)}`, {
    memory_id: memoryId,
    position: 0,
    owner_id: ownerId,
  });
}

/** A fresh access token for ann, signed by the app's own clock (so it is valid at that time). */
async function tokenAt(app: TestApp): Promise<string> {
  const response = await app.app.inject({
    method: "POST",
    url: "/auth/v1/token?grant_type=password",
    headers: { "x-supabase-api-version": "2024-01-01" },
    payload: { email: "ann@memory-box.test", password: "correct horse battery" },
  });
  if (response.statusCode !== 200) throw new Error(response.body);
  return response.json<{ access_token: string }>().access_token;
}
