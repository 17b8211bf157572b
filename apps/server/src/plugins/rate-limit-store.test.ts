import type { FastifyRateLimitStore } from "@fastify/rate-limit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/database";
import { createTestDatabase, type TestDatabase } from "../../test/test-database";
import { availableEngines } from "../../test/test-matrix";
import { databaseRateLimitStore } from "./rate-limit-store";

// The rate limits' store for several processes on one PostgreSQL (issue #37): what the plugin
// reads back from each hit, across two stores (two processes) and over time.

describe.skipIf(!availableEngines.includes("postgres"))("the rate limits counted in the database", () => {
  let database: TestDatabase;
  let connections: ReturnType<typeof openDatabase>[];
  let clock = 1_000_000;

  beforeAll(async () => {
    database = await createTestDatabase("postgres", { migrated: true });
    connections = [openDatabase(database.config), openDatabase(database.config)];
  });
  afterAll(async () => {
    for (const connection of connections) await connection.destroy();
    await database.drop();
  });

  /** A route's store in process `n`, as the plugin makes it. */
  const routeStore = (n: number, url: string): FastifyRateLimitStore => {
    const Store = databaseRateLimitStore(connections[n]!.db, () => clock);
    return new Store({}).child({ routeInfo: { method: "POST", url } } as never);
  };
  const hit = (store: FastifyRateLimitStore, key: string, window = 60_000) =>
    new Promise<{ current: number; ttl: number }>((resolve, reject) =>
      store.incr(key, (error, result) => (error ? reject(error) : resolve(result!)), window, 10),
    );

  it("counts the hits of both processes in one window, and starts a new window when it ends", async () => {
    const [one, two] = [routeStore(0, "/auth/v1/verify"), routeStore(1, "/auth/v1/verify")];
    expect(await hit(one, "127.0.0.1")).toEqual({ current: 1, ttl: 60_000 });
    clock += 1_000;
    expect(await hit(two, "127.0.0.1")).toEqual({ current: 2, ttl: 59_000 });
    expect(await hit(one, "127.0.0.1")).toEqual({ current: 3, ttl: 59_000 });
    clock += 59_000;
    expect(await hit(two, "127.0.0.1")).toEqual({ current: 1, ttl: 60_000 });
  });

  it("reads a count without counting, for routes that count only failures", async () => {
    const store = routeStore(0, "/api/v1/frames/pairing");
    type Result = { current: number; ttl: number };
    // The plugin's types leave `read` out; the plugin calls it with `incr`'s arguments.
    const { read: readCount } = store as unknown as {
      read: (key: string, callback: (error: Error | null, result?: Result) => void) => void;
    };
    const read = () =>
      new Promise<Result>((resolve, reject) =>
        readCount.call(store, "member 1", (error, result) => (error ? reject(error) : resolve(result!))),
      );
    expect(await read()).toEqual({ current: 0, ttl: 0 });
    await hit(store, "member 1");
    await hit(store, "member 1");
    expect(await read()).toEqual({ current: 2, ttl: 60_000 });
    expect(await read()).toEqual({ current: 2, ttl: 60_000 });
    clock += 60_000;
    expect(await read()).toEqual({ current: 0, ttl: 0 });
  });

  it("counts each address and each route apart", async () => {
    const verify = routeStore(0, "/auth/v1/other-verify");
    const token = routeStore(1, "/auth/v1/token");
    expect((await hit(verify, "10.0.0.1")).current).toBe(1);
    expect((await hit(verify, "10.0.0.2")).current).toBe(1);
    expect((await hit(token, "10.0.0.1")).current).toBe(1);
    expect((await hit(verify, "10.0.0.1")).current).toBe(2);
  });

  it("loses no hit when both processes count at once", async () => {
    const [one, two] = [routeStore(0, "/auth/v1/busy"), routeStore(1, "/auth/v1/busy")];
    const counts = await Promise.all(Array.from({ length: 20 }, (_, n) => hit(n % 2 ? one : two, "192.0.2.1")));
    expect(counts.map((count) => count.current).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, n) => n + 1));
  });
});
