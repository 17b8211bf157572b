import fsp from "node:fs/promises";
import type { BackupSchedule } from "../../config";
import type { BackupService } from "./backup.service";

const periodMs: Record<Exclude<BackupSchedule, "off">, number> = {
  hourly: 3600_000,
  daily: 24 * 3600_000,
  weekly: 7 * 24 * 3600_000,
};

/** A first backup waits this long after start-up (or after one was missed), so a restart is never slowed by one. */
const startDelayMs = 5 * 60_000;

/**
 * Takes backups on the server's own schedule (`BACKUP_SCHEDULE`), counted from the newest snapshot
 * in the folder, so restarts neither skip one nor take extra ones. Failures are logged and retried
 * at the next turn; the timer never keeps the process alive.
 */
export class BackupScheduler {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly deps: {
      service: BackupService;
      schedule: BackupSchedule;
      log: { info(object: object, message: string): void; error(object: object, message: string): void };
      now?: () => Date;
    },
  ) {}

  async start(): Promise<void> {
    if (this.deps.schedule === "off") return;
    this.plan(await this.dueIn());
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  /** Milliseconds until the next backup is due: a period after the newest one, at least `startDelayMs` from now. */
  async dueIn(): Promise<number> {
    if (this.deps.schedule === "off") return Infinity;
    const newest = (await this.deps.service.snapshots()).at(-1);
    const takenAt = newest ? (await fsp.stat(newest)).mtimeMs : -Infinity;
    const now = (this.deps.now?.() ?? new Date()).getTime();
    return Math.max(startDelayMs, takenAt + periodMs[this.deps.schedule] - now);
  }

  private plan(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.take(), Math.min(delayMs, 2 ** 31 - 1));
    this.timer.unref();
  }

  private async take(): Promise<void> {
    try {
      const summary = await this.deps.service.run();
      this.deps.log.info({ snapshot: summary.snapshot, files: summary.objects, linked: summary.linked }, "backup taken");
    } catch (error) {
      this.deps.log.error({ err: error }, "backup failed; the next one is tried at the next turn");
    }
    if (this.deps.schedule !== "off") this.plan(periodMs[this.deps.schedule]);
  }
}
