import { describe, expect, it, vi } from "vitest";

import { pause } from "@/lib/pause";

describe("pause", () => {
  it("leaves no listener on a signal that outlives its waits", async () => {
    const controller = new AbortController();
    const added = vi.spyOn(controller.signal, "addEventListener");
    const removed = vi.spyOn(controller.signal, "removeEventListener");
    for (let wait = 0; wait < 5; wait += 1) await pause(1, controller.signal);
    expect(added).toHaveBeenCalledTimes(5);
    expect(removed).toHaveBeenCalledTimes(5);
    expect(removed.mock.calls.map(([, listener]) => listener)).toEqual(added.mock.calls.map(([, listener]) => listener));
  });

  it("ends at once when the signal aborts, or was aborted already", async () => {
    const controller = new AbortController();
    const started = performance.now();
    const waiting = pause(60_000, controller.signal);
    controller.abort();
    await waiting;
    await pause(60_000, controller.signal);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
