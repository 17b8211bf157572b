import { describe, expect, it } from "vitest";
import { SharedReads } from "./shared-reads";

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A stand-in for the database: each batch reads the values as they are when it is sent. */
function source() {
  const values = new Map<string, number>();
  const batches: string[][] = [];
  let release: (() => void)[] = [];
  return {
    values,
    batches,
    /** Answers the keys it has, once `finish` is called. */
    loadMany: (keys: string[]) => {
      batches.push(keys);
      const read = new Map([...values].filter(([key]) => keys.includes(key)));
      return new Promise<Map<string, number>>((resolve) => release.push(() => resolve(read)));
    },
    /** Answers the batch on its way, once one has been sent. */
    finish: async () => {
      while (release.length === 0) await turn();
      const pending = release;
      release = [];
      for (const done of pending) done();
    },
  };
}

describe("SharedReads", () => {
  it("reads the keys asked for in one event-loop turn in one batch, each key once, and answers each caller", async () => {
    const db = source();
    const reads = new SharedReads(db.loadMany);
    db.values.set("a", 1).set("b", 2);
    const answers = Promise.all([reads.read("a"), reads.read("b"), reads.read("a"), reads.read("missing")]);
    await db.finish();
    expect(await answers).toEqual([1, 2, 1, undefined]);
    expect(db.batches).toEqual([["a", "b", "missing"]]);
  });

  it("never hands a caller a read sent before it asked: it waits for the next batch", async () => {
    const db = source();
    const reads = new SharedReads(db.loadMany);
    db.values.set("a", 1);
    const early = reads.read("a");
    await turn(); // the first batch is now on its way, having read 1
    db.values.set("a", 2); // e.g. a sign-out commits
    const late = [reads.read("a"), reads.read("b")];
    await db.finish();
    expect(await early).toBe(1);
    await db.finish();
    expect(await Promise.all(late)).toEqual([2, undefined]);
    expect(db.batches).toEqual([["a"], ["a", "b"]]);
  });

  it("sends one batch at a time", async () => {
    const db = source();
    const reads = new SharedReads(db.loadMany);
    const first = reads.read("a");
    await turn();
    const second = reads.read("b");
    await turn();
    await turn();
    expect(db.batches).toEqual([["a"]]);
    await db.finish();
    await first;
    await db.finish();
    await second;
    expect(db.batches).toEqual([["a"], ["b"]]);
  });

  it("fails the callers of a failed batch, and the next callers read again", async () => {
    let attempt = 0;
    const reads = new SharedReads<string, number>(async (keys) => {
      attempt += 1;
      if (attempt === 1) throw new Error("connection lost");
      return new Map(keys.map((key) => [key, attempt]));
    });
    const failed = await Promise.allSettled([reads.read("a"), reads.read("b")]);
    expect(failed.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    expect(await reads.read("a")).toBe(2);
    // A load that throws before returning its promise fails the same way.
    const throwing = new SharedReads<string, number>(() => {
      throw new Error("no pool");
    });
    await expect(throwing.read("x")).rejects.toThrow("no pool");
  });

  it("starts afresh for callers that come one after another", async () => {
    const db = source();
    const reads = new SharedReads(db.loadMany);
    for (const value of [3, 4, 5]) {
      db.values.set("a", value);
      const answer = reads.read("a");
      await db.finish();
      expect(await answer).toBe(value);
    }
    expect(db.batches).toEqual([["a"], ["a"], ["a"]]);
  });

  it("fails a stuck batch's own callers after its time limit and starts the next batch; the late answer is dropped", async () => {
    let release: ((value: Map<string, number>) => void) | undefined;
    const batches: string[][] = [];
    const reads = new SharedReads<string, number>(
      (keys) => {
        batches.push(keys);
        // The first batch never answers by itself (a connection stuck on a dead network).
        if (batches.length === 1) return new Promise((resolve) => (release = resolve));
        return Promise.resolve(new Map(keys.map((key) => [key, 2])));
      },
      { timeoutMs: 50, describe: "member check" },
    );
    const stuck = reads.read("a");
    await turn(); // the first batch is on its way
    const waitingBehind = reads.read("b");
    const startedAt = Date.now();
    await expect(stuck).rejects.toMatchObject({
      code: "service_unavailable",
      message: "The member check took longer than 50 ms.",
    });
    expect(Date.now() - startedAt).toBeLessThan(1000);
    // The caller that waited behind the stuck batch is answered by the next one, not failed with it.
    expect(await waitingBehind).toBe(2);
    expect(batches).toEqual([["a"], ["b"]]);
    release?.(new Map([["a", 1]]));
    await turn();
    expect(await reads.read("a")).toBe(2);
  });
});
