import type { Memory } from "@memory-box/contract";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStream } from "../../../test/event-stream";
import { createMember, type TestMember, uploadPhotoAs } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

function jpeg(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 90, g: 140, b: 200 } } })
    .jpeg()
    .toBuffer();
}

const day = (n: number) => `2026-01-${String(n).padStart(2, "0")}`;

describe.each(testEngines())("many memories at once, one per capture day (ADR 0063) on %s", (engine) => {
  let testApp: TestApp;
  let baseUrl: string;
  let ann: TestMember;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    baseUrl = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    ann = await createMember(testApp, "ann.batch@memory-box.test", "Ann");
  });
  afterAll(() => testApp.close());

  const post = (member: TestMember | null, payload: unknown, headers: Record<string, string> = {}) =>
    testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories/batch",
      payload: payload as object,
      headers: { ...(member ? member.headers : {}), ...headers },
    });
  const total = async () =>
    (await testApp.app.inject({ method: "GET", url: "/api/v1/memories", headers: ann.headers })).json<{ total: number }>().total;
  const photo = async () => uploadPhotoAs(testApp, ann, await jpeg());

  it("makes one memory per day with its date and photos, in one answer, each told to the live stream", async () => {
    const stream = await openStream(baseUrl, ann);
    const photos = [await photo(), await photo(), await photo()];
    const response = await post(ann, {
      items: [
        { title: "Saturday", memory_date: day(3), photo_ids: [photos[0], photos[1]] },
        { title: "Sunday", memory_date: day(4), photo_ids: [photos[2]] },
      ],
    });
    expect(response.statusCode, response.body).toBe(201);
    const { memories } = response.json<{ memories: Memory[] }>();
    expect(memories.map((memory) => [memory.title, memory.memory_date, memory.photos.map((p) => p.id)])).toEqual([
      ["Saturday", day(3), [photos[0], photos[1]]],
      ["Sunday", day(4), [photos[2]]],
    ]);
    for (const memory of memories) {
      const event = await stream.waitFor(
        (streamed) => streamed.event === "memory.created" && (JSON.parse(streamed.data) as { id: string }).id === memory.id,
      );
      expect(event).toBeDefined();
    }
    await stream.close();
  });

  it("refuses a signed-out caller with 401 and writes nothing", async () => {
    const before = await total();
    const response = await post(null, { items: [{ title: "x", memory_date: day(1) }] });
    expect(response.statusCode).toBe(401);
    expect(await total()).toBe(before);
  });

  it.each([
    [{ items: [] }, "body.items"],
    [
      { items: Array.from({ length: 32 }, (_, i) => ({ title: "d", memory_date: `2025-03-${String(i + 1).padStart(2, "0")}` })) },
      "body.items",
    ],
    [
      {
        items: [
          { title: "a", memory_date: day(5) },
          { title: "b", memory_date: day(5) },
        ],
      },
      "body.items.1.memory_date",
    ],
    [
      {
        items: [
          { title: "a", memory_date: day(6) },
          { title: "", memory_date: day(7) },
        ],
      },
      "body.items.1.title",
    ],
    [
      {
        items: [
          { title: "a", memory_date: day(6) },
          { title: "b", memory_date: "2026-02-30" },
        ],
      },
      "body.items.1.memory_date",
    ],
    [{ items: [{ title: "a", memory_date: day(6), photo_ids: ["nope"] }] }, "body.items.0.photo_ids.0"],
    [{ items: [{ title: "a", memory_date: day(6), user_id: "x" }] }, "body.items.0"],
    [{ items: "all" }, "body.items"],
    [{ items: [{ title: "a", memory_date: day(6) }, { title: "b" }] }, "body.items.1.memory_date"],
    [{ items: [], extra: 1 }, "body"],
  ])("rejects %j with 400 naming %s, and writes nothing", async (body, path) => {
    const before = await total();
    const response = await post(ann, body);
    expect(response.statusCode).toBe(400);
    const error = response.json<{ code: string; details: { path: string }[] }>();
    expect(error.code).toBe("validation_failed");
    expect(error.details.map((detail) => detail.path).join(" ")).toContain(path);
    expect(await total()).toBe(before);
  });

  it("writes nothing when one item's photo is unknown or another item's", async () => {
    const before = await total();
    const shared = await photo();
    const twice = await post(ann, {
      items: [
        { title: "a", memory_date: day(8), photo_ids: [shared] },
        { title: "b", memory_date: day(9), photo_ids: [shared] },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ code: "duplicate_photo" });
    const unknown = await post(ann, {
      items: [
        { title: "a", memory_date: day(8), photo_ids: [shared] },
        { title: "b", memory_date: day(9), photo_ids: ["6f1b2c3d-0000-4000-8000-000000000000"] },
      ],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ code: "unknown_photo" });
    expect(await total()).toBe(before);
    // The photo is still free for a memory.
    expect((await post(ann, { items: [{ title: "a", memory_date: day(8), photo_ids: [shared] }] })).statusCode).toBe(201);
  });

  it("answers a replayed Idempotency-Key with the first answer and makes the memories once", async () => {
    const before = await total();
    const body = {
      items: [
        { title: "a", memory_date: day(10) },
        { title: "b", memory_date: day(11) },
      ],
    };
    const key = { "idempotency-key": "batch-2026-01-10-one" };
    const first = await post(ann, body, key);
    const again = await post(ann, body, key);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await total()).toBe(before + 2);
  });

  it("refuses a huge body with 413 and writes nothing", async () => {
    const before = await total();
    const response = await post(ann, { items: [{ title: "a", memory_date: day(12), content: "x".repeat(2_000_000) }] });
    expect(response.statusCode).toBe(413);
    expect(await total()).toBe(before);
  });
});
