import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { BackupScheduler } from "./backup-scheduler";
import type { BackupService } from "./backup.service";

const hour = 3600_000;

describe("BackupScheduler", () => {
  let dir: string;
  const log = { info: vi.fn(), error: vi.fn() };

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-schedule-"));
  });
  afterEach(async () => {
    vi.useRealTimers();
    await fs.rm(dir, { recursive: true, force: true });
  });

  function service(snapshots: string[], run = vi.fn(async () => ({ snapshot: "s", objects: 1, linked: 0, bytes: 1 }))) {
    return { snapshots: async () => snapshots, run } as unknown as BackupService & { run: typeof run };
  }

  it("counts from the newest snapshot, so a restart neither skips a backup nor takes an extra one", async () => {
    const newest = path.join(dir, "2026-01-01T00-00-00-000Z");
    await fs.mkdir(newest);
    const takenAt = (await fs.stat(newest)).mtimeMs;
    const at = (ms: number) => () => new Date(takenAt + ms);
    const daily = (now: () => Date) => new BackupScheduler({ service: service([newest]), schedule: "daily", log, now });

    expect(await daily(at(3 * hour)).dueIn()).toBeCloseTo(21 * hour, -1);
    // Overdue (the server was down when it was due): soon, but not during start-up.
    expect(await daily(at(30 * hour)).dueIn()).toBe(5 * 60_000);
    expect(await new BackupScheduler({ service: service([]), schedule: "weekly", log }).dueIn()).toBe(5 * 60_000);
    expect(await new BackupScheduler({ service: service([newest]), schedule: "off", log }).dueIn()).toBe(Infinity);
  });

  it("takes one when due, logs a failure and goes on to the next turn", async () => {
    vi.useFakeTimers();
    const run = vi
      .fn()
      .mockRejectedValueOnce(new Error("disk full"))
      .mockResolvedValue({ snapshot: "s", objects: 1, linked: 0, bytes: 1 });
    const scheduler = new BackupScheduler({ service: service([], run), schedule: "hourly", log });
    await scheduler.start();

    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0]?.[1]).toMatch(/^backup failed/);
    await vi.advanceTimersByTimeAsync(hour);
    expect(run).toHaveBeenCalledTimes(2);
    expect(log.info).toHaveBeenCalledWith(expect.objectContaining({ snapshot: "s" }), "backup taken");

    scheduler.stop();
    await vi.advanceTimersByTimeAsync(2 * hour);
    expect(run).toHaveBeenCalledTimes(2);
  });
});
