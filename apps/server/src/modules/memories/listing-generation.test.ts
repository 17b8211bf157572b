import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryRow } from "../../../test/memory-rows";
import { photoRow } from "../../../test/photo-rows";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { newUser } from "../auth/core/account-rules";
import { sortKey } from "./memories.repository";

/**
 * The listing cache's invariant: every write a list page can show moves `memory_stats.generation`
 * or `memory_stats.responses`, whoever makes it (the service, the CLI, a restore, another
 * process), because pages are kept per both and searches' matches, counts and timelines per
 * `generation`. A page shows each memory's fields and author, its tags in order, and its attached
 * photos: each kind of write to those is made here straight in SQL, past the service, and must
 * move `generation`. It also shows each memory's comment and reaction counts: a comment or
 * reaction added or removed must move `responses`, and leave `generation` (and with it every kept
 * search and timeline) as it is. Uploads not yet attached show nowhere and must move neither, nor
 * a comment's text.
 */
describe.each(testEngines())("every write a list page can show moves its counter, on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  const userId = randomUUID();
  const memoryId = randomUUID();
  const commentId = randomUUID();
  const createdAt = "2026-01-01T00:00:00.000Z";

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    const { db } = database;
    await db
      .insertInto("users")
      .values({ ...newUser("ann@memory-box.test", null, {}, createdAt), id: userId })
      .execute();
    await db
      .insertInto("profiles")
      .values({ user_id: userId, display_name: "Ann", created_at: createdAt, updated_at: createdAt })
      .execute();
    await db
      .insertInto("memories")
      .values(
        memoryRow({
          id: memoryId,
          title: "Lighthouse",
          content: "Windy",
          memory_date: "2024-05-01",
          user_id: userId,
          updated_by: userId,
          created_at: createdAt,
          search_text: "lighthouse\nwindy\ncoast\nsea",
        }),
      )
      .execute();
    await db
      .insertInto("memory_tags")
      .values([
        { memory_id: memoryId, position: 0, tag: "coast", tag_key: "coast" },
        { memory_id: memoryId, position: 1, tag: "sea", tag_key: "sea" },
      ])
      .execute();
    await db
      .insertInto("photos")
      .values(photoRow(`${userId}/attached`, { memory_id: memoryId, position: 0, owner_id: userId }))
      .execute();
  });
  afterAll(() => database.close());

  type Counter = "generation" | "responses";
  const counters = async (): Promise<Record<Counter, number>> => {
    const row = await database.db.selectFrom("memory_stats").select(["generation", "responses"]).executeTakeFirstOrThrow();
    return { generation: Number(row.generation), responses: Number(row.responses) };
  };
  const attachedPhotoId = async () =>
    (await database.db.selectFrom("photos").select("id").where("memory_id", "=", memoryId).executeTakeFirstOrThrow()).id;

  const shownWrites: [string, Counter, () => Promise<unknown>][] = [
    [
      "a memory's title",
      "generation",
      () => database.db.updateTable("memories").set({ title: "Old lighthouse" }).where("id", "=", memoryId).execute(),
    ],
    [
      "a memory's description",
      "generation",
      () => database.db.updateTable("memories").set({ content: "Calm" }).where("id", "=", memoryId).execute(),
    ],
    [
      "a memory's date",
      "generation",
      () =>
        database.db
          .updateTable("memories")
          .set({ memory_date: "2024-05-02", sort_key: sortKey("2024-05-02", createdAt, memoryId) })
          .where("id", "=", memoryId)
          .execute(),
    ],
    [
      "a memory's last editor",
      "generation",
      () => database.db.updateTable("memories").set({ updated_at: "2026-02-01T00:00:00.000Z" }).execute(),
    ],
    [
      "a tag added",
      "generation",
      () =>
        database.db
          .insertInto("memory_tags")
          .values({ memory_id: memoryId, position: 2, tag: "gulls", tag_key: "gulls" })
          .execute(),
    ],
    [
      "a tag's spelling",
      "generation",
      () => database.db.updateTable("memory_tags").set({ tag: "Gulls" }).where("tag_key", "=", "gulls").execute(),
    ],
    [
      "a tag's place in the list",
      "generation",
      () => database.db.updateTable("memory_tags").set({ position: 5 }).where("tag_key", "=", "gulls").execute(),
    ],
    ["a tag removed", "generation", () => database.db.deleteFrom("memory_tags").where("tag_key", "=", "gulls").execute()],
    [
      "a photo attached as it is stored",
      "generation",
      () =>
        database.db
          .insertInto("photos")
          .values(photoRow(`${userId}/second`, { memory_id: memoryId, position: 1, owner_id: userId }))
          .execute(),
    ],
    [
      "an upload attached",
      "generation",
      async () => {
        const upload = photoRow(`${userId}/upload`, { owner_id: userId });
        await database.db.insertInto("photos").values(upload).execute();
        const before = await counters();
        await database.db.updateTable("photos").set({ memory_id: memoryId, position: 2 }).where("id", "=", upload.id).execute();
        return before;
      },
    ],
    [
      "a photo's place",
      "generation",
      async () =>
        database.db
          .updateTable("photos")
          .set({ position: 9 })
          .where("id", "=", await attachedPhotoId())
          .execute(),
    ],
    [
      "a photo's derivatives",
      "generation",
      async () =>
        database.db
          .updateTable("photos")
          .set({ width: 41 })
          .where("id", "=", await attachedPhotoId())
          .execute(),
    ],
    [
      "a photo detached",
      "generation",
      async () =>
        database.db
          .updateTable("photos")
          .set({ memory_id: null, position: null })
          .where("id", "=", await attachedPhotoId())
          .execute(),
    ],
    [
      "an attached photo deleted",
      "generation",
      () => database.db.deleteFrom("photos").where("memory_id", "=", memoryId).execute(),
    ],
    [
      "an author's display name",
      "generation",
      () => database.db.updateTable("profiles").set({ display_name: "Ann B." }).execute(),
    ],
    [
      "an author's profile removed",
      "generation",
      () => database.db.deleteFrom("profiles").where("user_id", "=", userId).execute(),
    ],
    [
      "an author's profile created",
      "generation",
      () =>
        database.db
          .insertInto("profiles")
          .values({ user_id: userId, display_name: "Ann", created_at: createdAt, updated_at: createdAt })
          .execute(),
    ],
    [
      "a memory added",
      "generation",
      () =>
        database.db
          .insertInto("memories")
          .values(memoryRow({ title: "Picnic", user_id: userId, updated_by: userId, created_at: createdAt }))
          .execute(),
    ],
    [
      "a comment added",
      "responses",
      () =>
        database.db
          .insertInto("comments")
          .values({
            id: commentId,
            memory_id: memoryId,
            user_id: userId,
            body: "Hi",
            created_at: createdAt,
            updated_at: createdAt,
          })
          .execute(),
    ],
    ["a comment deleted", "responses", () => database.db.deleteFrom("comments").where("id", "=", commentId).execute()],
    [
      "a reaction added",
      "responses",
      () =>
        database.db
          .insertInto("reactions")
          .values({ memory_id: memoryId, user_id: userId, emoji: "❤️", created_at: createdAt })
          .execute(),
    ],
    ["a reaction changed", "responses", () => database.db.updateTable("reactions").set({ emoji: "🎉" }).execute()],
    ["a reaction removed", "responses", () => database.db.deleteFrom("reactions").execute()],
    ["a memory deleted", "generation", () => database.db.deleteFrom("memories").where("title", "=", "Picnic").execute()],
  ];

  it.each(shownWrites)("%s moves %s", async (_write, counter, write) => {
    const before = await counters();
    // A write that first prepares something unseen returns the counters to compare with.
    const returned = await write();
    const baseline = isCounters(returned) ? returned : before;
    const after = await counters();
    expect(after[counter]).toBeGreaterThan(baseline[counter]);
    // Which memories match a search, and how many a month holds, are the same as before.
    if (counter === "responses") expect(after.generation).toBe(baseline.generation);
  });

  it("but not a comment's text, which a page does not show", async () => {
    await database.db
      .insertInto("comments")
      .values({
        id: randomUUID(),
        memory_id: memoryId,
        user_id: userId,
        body: "Hi",
        created_at: createdAt,
        updated_at: createdAt,
      })
      .execute();
    const before = await counters();
    await database.db.updateTable("comments").set({ body: "Hello", updated_at: "2026-03-01T00:00:00.000Z" }).execute();
    expect(await counters()).toEqual(before);
  });

  it("but not a reaction put again or taken back again, which changes no row", async () => {
    const reaction = { memory_id: memoryId, user_id: userId, emoji: "😮", created_at: createdAt };
    await database.db.insertInto("reactions").values(reaction).execute();
    const before = await counters();
    await database.db
      .insertInto("reactions")
      .values(reaction)
      .onConflict((conflict) => conflict.doNothing())
      .execute();
    expect(await counters()).toEqual(before);
    await database.db.deleteFrom("reactions").where("emoji", "=", "😮").execute();
    const afterRemoval = await counters();
    expect(afterRemoval.responses).toBeGreaterThan(before.responses);
    await database.db.deleteFrom("reactions").where("emoji", "=", "😮").execute();
    expect(await counters()).toEqual(afterRemoval);
  });

  it("but not an upload that no memory shows yet", async () => {
    const before = await counters();
    await database.db
      .insertInto("photos")
      .values(photoRow(`${userId}/unattached`, { owner_id: userId }))
      .execute();
    await database.db.updateTable("photos").set({ width: 99 }).where("memory_id", "is", null).execute();
    await sql`delete from photos where memory_id is null`.execute(database.db);
    expect(await counters()).toEqual(before);
  });
});

function isCounters(value: unknown): value is Record<"generation" | "responses", number> {
  return typeof value === "object" && value !== null && "generation" in value && "responses" in value;
}
