import { describe, expect, it } from "vitest";
import { SharedReads } from "./shared-reads";

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A stand-in for the database: each load reads the value as it is when the load starts. */
function source() {
  let value = 0;
  let loads = 0;
  let release: (() => void)[] = [];
  return {
    set: (next: number) => {
      value = next;
    },
    get loads() {
      return loads;
    },
    /** Resolves with the value read at the start, once `finish` is called. */
    load: () => {
      loads += 1;
      const read = value;
      return new Promise<number>((resolve) => release.push(() => resolve(read)));
    },
    /** Answers the reads on their way, once one has been sent. */
    finish: async () => {
      while (release.length === 0) await turn();
      const pending = release;
      release = [];
      for (const done of pending) done();
    },
  };
}

describe("SharedReads", () => {
  it("sends one read for the callers of one event-loop turn, and each gets its answer", async () => {
    const reads = new SharedReads<number>();
    const db = source();
    db.set(7);
    const answers = Promise.all([reads.read("k", db.load), reads.read("k", db.load), reads.read("k", db.load)]);
    await db.finish();
    expect(await answers).toEqual([7, 7, 7]);
    expect(db.loads).toBe(1);
  });

  it("never hands a caller a read sent before it asked: it waits for the next read", async () => {
    const reads = new SharedReads<number>();
    const db = source();
    db.set(1);
    const early = reads.read("k", db.load);
    await turn(); // the first read is now on its way, having read 1
    db.set(2); // e.g. a sign-out commits
    const late = [reads.read("k", db.load), reads.read("k", db.load)];
    await db.finish();
    expect(await early).toBe(1);
    await db.finish();
    expect(await Promise.all(late)).toEqual([2, 2]);
    expect(db.loads).toBe(2);
  });

  it("keeps keys apart", async () => {
    const reads = new SharedReads<string>();
    const loaded: string[] = [];
    const answers = Promise.all(["a", "b", "a"].map((key) => reads.read(key, async () => (loaded.push(key), key.toUpperCase()))));
    expect(await answers).toEqual(["A", "B", "A"]);
    expect(loaded.sort()).toEqual(["a", "b"]);
  });

  it("passes a failed read to the callers that shared it, and the next callers read again", async () => {
    const reads = new SharedReads<number>();
    let attempt = 0;
    const load = async () => {
      attempt += 1;
      if (attempt === 1) throw new Error("connection lost");
      return attempt;
    };
    const failed = await Promise.allSettled([reads.read("k", load), reads.read("k", load)]);
    expect(failed.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
    expect(await reads.read("k", load)).toBe(2);
    // A load that throws before returning its promise fails the same way.
    await expect(
      reads.read("x", () => {
        throw new Error("no pool");
      }),
    ).rejects.toThrow("no pool");
    expect(await reads.read("x", async () => 5)).toBe(5);
  });

  it("forgets a key once nobody waits on it, so reads of one key after another each start fresh", async () => {
    const reads = new SharedReads<number>();
    const db = source();
    for (const value of [3, 4, 5]) {
      db.set(value);
      const answer = reads.read("k", db.load);
      await db.finish();
      expect(await answer).toBe(value);
    }
    expect(db.loads).toBe(3);
  });
});
