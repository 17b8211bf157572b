import { randomUUID } from "node:crypto";
import { CoalescedRun } from "../../lib/coalesced-run";
import type { PushNotificationRow } from "../../db/schema";
import type { NotificationsRepository } from "./notifications.repository";
import type { NotificationsLog, NotificationsService } from "./notifications.service";

const finishedLifetimeMs = 7 * 24 * 3600_000;

export interface NotificationRunnerOptions {
  /** How long a taken notification stays this runner's: longer than a send may take. */
  leaseMs?: number;
  /** How often the outbox is looked at for due rows (a change queued here looks at once). */
  pollMs?: number;
  /** How often the devices are looked at for "On this day" (and whether any is subscribed). */
  onThisDayMs?: number;
  /** Sends tried before a notification is given up (a lease that expired counts as one). */
  maxAttempts?: number;
  /** Wait before attempt `attempt + 1`, after attempt `attempt` failed. */
  backoffMs?: (attempt: number) => number;
  /** How many notifications are sent at once by this process. */
  concurrency?: number;
  owner?: string;
  now?: () => Date;
}

/**
 * Sends the outbox's due notifications (ADR 0059), leased like `media_jobs` (ADR 0054): a row is
 * taken under a lease, sent, and marked sent, queued again after a backoff, or failed. A runner
 * killed mid-send leaves the lease to expire and another (or the next start) sends the row; a
 * send that reached the push service just before the kill goes again under the same tag and
 * Topic, so the device shows it once.
 */
export class NotificationRunner {
  readonly owner: string;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly onThisDayMs: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: (attempt: number) => number;
  private readonly concurrency: number;
  private readonly now: () => Date;
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private onThisDayTimer: NodeJS.Timeout | undefined;
  private started = false;
  private readonly passes = new CoalescedRun(
    () => this.pump(),
    (error: unknown) => this.log.warn({ err: error }, "the push outbox could not be read"),
  );

  constructor(
    private readonly repository: NotificationsRepository,
    private readonly service: NotificationsService,
    private readonly log: NotificationsLog,
    options: NotificationRunnerOptions = {},
  ) {
    this.owner = options.owner ?? `push-${randomUUID()}`;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 5_000;
    this.onThisDayMs = options.onThisDayMs ?? 60_000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 8);
    this.backoffMs = options.backoffMs ?? ((attempt) => Math.min(15_000 * 2 ** (attempt - 1), 3600_000));
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.now = options.now ?? (() => new Date());
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.onThisDayTimer = setInterval(() => this.queueOnThisDay(), this.onThisDayMs);
    this.onThisDayTimer.unref();
    this.queueOnThisDay();
    this.pruneTimer = setInterval(() => this.prune(), 3600_000);
    this.pruneTimer.unref();
    this.prune();
    this.wake();
  }

  private queueOnThisDay(): void {
    this.service.queueOnThisDay().then(
      (queued) => queued > 0 && this.wake(),
      (error: unknown) => this.log.warn({ err: error }, "queueing On this day failed"),
    );
  }

  /** Sent and failed notifications are kept a week (grouping reads the last window; an operator the errors). */
  private prune(): void {
    this.repository.pruneFinished(this.iso(-finishedLifetimeMs)).then(
      (pruned) => pruned > 0 && this.log.info({ pruned }, "removed push notifications finished a week ago"),
      (error: unknown) => this.log.warn({ err: error }, "pruning push notifications failed"),
    );
  }

  /** Takes no more rows; waits for the sends under way, or with `abandon` leaves them to their leases. */
  async stop(options: { abandon?: boolean } = {}): Promise<void> {
    this.started = false;
    clearInterval(this.timer);
    clearInterval(this.pruneTimer);
    clearInterval(this.onThisDayTimer);
    this.timer = undefined;
    if (options.abandon) return;
    await this.passes.current;
    await Promise.all(this.running);
  }

  /** Looks for due notifications now. */
  wake(): void {
    if (!this.started) return;
    this.passes.wake();
  }

  private async pump(): Promise<void> {
    while (this.started && this.running.size < this.concurrency) {
      const row = await this.repository.claim(this.owner, this.iso(0), this.iso(this.leaseMs));
      if (!row || !this.started) return;
      const done: Promise<void> = this.run(row).finally(() => {
        this.running.delete(done);
        this.wake();
      });
      this.running.add(done);
    }
  }

  private async run(row: PushNotificationRow): Promise<void> {
    try {
      if (row.attempts > this.maxAttempts) {
        await this.repository.finish(row.id, this.owner, { state: "failed" }, "abandoned", this.iso(0));
        return;
      }
      const outcome = await this.service.deliver(row);
      if (outcome.kind === "retry") {
        const last = row.attempts >= this.maxAttempts;
        await this.repository.finish(
          row.id,
          this.owner,
          last ? { state: "failed" } : { state: "queued", retryAt: this.iso(this.backoffMs(row.attempts)) },
          outcome.reason,
          this.iso(0),
        );
        if (last) this.log.warn({ notification: row.id, reason: outcome.reason }, "push notification given up after retries");
        return;
      }
      // Gone or no device: the row went with the subscription; finishing it changes nothing.
      // Turned off: nothing left that the device wants; done, nothing sent.
      const failed = outcome.kind === "rejected";
      await this.repository.finish(
        row.id,
        this.owner,
        { state: failed ? "failed" : "sent" },
        failed ? outcome.reason : outcome.kind === "turned_off" ? "turned_off" : null,
        this.iso(0),
      );
    } catch (error) {
      // Not even sent (the database went away): the lease expires and the row is tried again.
      this.log.warn({ err: error, notification: row.id }, "sending a push notification failed");
    }
  }

  private iso(offsetMs: number): string {
    return new Date(this.now().getTime() + offsetMs).toISOString();
  }
}
