import { describe, expect, it } from "vitest";
import { ConcurrencyLimit } from "./concurrency-limit";

describe("ConcurrencyLimit", () => {
  it("never runs more than the limit at once, and runs everything", async () => {
    const limit = new ConcurrencyLimit(2);
    let running = 0;
    let peak = 0;
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        limit.run(async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((resolve) => setTimeout(resolve, 5));
          running -= 1;
          return i;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(results).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("frees the slot when a task fails", async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(limit.run(() => Promise.resolve("next"))).resolves.toBe("next");
  });
});
