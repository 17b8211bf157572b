import { describe, expect, it } from "vitest";
import { BufferPool } from "./buffer-pool";

describe("BufferPool", () => {
  it("hands a buffer out again once it is given back, through any view of it", () => {
    const pool = new BufferPool(1024);
    const first = pool.take();
    pool.release(first.subarray(0, 10));
    const again = pool.take();
    expect(again.buffer).toBe(first.buffer);
    expect(again.length).toBe(1024);
  });

  it("never hands the same buffer to two takers: a second release of it is ignored", () => {
    const pool = new BufferPool(64);
    const buffer = pool.take();
    pool.release(buffer);
    pool.release(buffer);
    const [a, b] = [pool.take(), pool.take()];
    expect(a.buffer).not.toBe(b.buffer);
  });

  it("ignores chunks it did not lend, and keeps no more than it was told to", () => {
    const pool = new BufferPool(64, 1);
    pool.release(Buffer.alloc(64));
    const [a, b] = [pool.take(), pool.take()];
    pool.release(a);
    pool.release(b);
    const [c, d] = [pool.take(), pool.take()];
    expect(c.buffer).toBe(a.buffer);
    expect(d.buffer).not.toBe(b.buffer);
  });
});
