import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database, MailOutboxRow } from "../../db/schema";
import { CoalescedRun } from "../../lib/coalesced-run";
import type { MailOutboxRepository, MailQueueSummary } from "./mail-outbox.repository";
import type { MailSeal } from "./mail-seal";
import { MailDeliveryError, type Mailer, type MailMessage, type MailSendOptions } from "./mailer";

export interface MailOutboxLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface MailOutboxOptions {
  /** How often the outbox is looked at for due mails (a mail queued here looks at once). Default 5 s. */
  pollMs?: number;
  /** How long a taken mail stays this process's: longer than a send may take (SMTP gives up within 40 s). Default 2 min. */
  leaseMs?: number;
  /** Mails sent at once by this process. Default 2. */
  concurrency?: number;
  /** The wait before trying a mail again after its `attempt`-th failure, jitter included. */
  backoffMs?: (attempt: number) => number;
  /** A mail not sent this long after it was queued is given up. Default 3 days. */
  maxAgeMs?: number;
  /** Rows of finished mails are kept this long (health, operators), without their content. Default 7 days. */
  keepFinishedMs?: number;
  /** How long a stop waits for the sends under way before leaving them to their leases. Default 5 s. */
  stopWaitMs?: number;
  now?: () => Date;
  /** In [0, 1): the jitter of the default backoff. */
  random?: () => number;
  owner?: string;
}

export interface MailOutboxDeps {
  repository: MailOutboxRepository;
  db: Kysely<Database>;
  seal: MailSeal;
  /** What actually sends: SMTP, or the folder of .eml files without SMTP. */
  transport: Mailer;
  log: MailOutboxLog;
  /** The domain of the Message-ID each mail is given, so one sent twice (a crash) is dropped as a duplicate. */
  messageIdDomain: string;
}

const minute = 60_000;
const hour = 60 * minute;

/** Between half and all of 1 min × 2^(attempt − 1), at most an hour: retries of many mails spread out. */
export function defaultMailBackoff(attempt: number, random: () => number = Math.random): number {
  const delay = Math.min(minute * 2 ** Math.max(0, attempt - 1), hour);
  return Math.round(delay / 2 + (random() * delay) / 2);
}

/** Health's view of the mail: `degraded` while the latest attempt to send failed. */
export interface MailHealth {
  status: "ok" | "degraded";
  waiting: number;
  oldestWaitingSeconds: number | null;
  lastFailureAt: string | null;
}

/**
 * The server's mail outbox (ADR 0077). `send` writes the rendered mail, sealed, into `mail_outbox`
 * (in the caller's transaction when given one) and returns: no request waits on the mail server.
 * The worker sends due mails a few at a time, oldest first, each under a lease (a process killed
 * mid-send leaves it to expire, and the next start or another process takes the mail again, under
 * the same Message-ID). A mail the server could not take is tried again after an exponential backoff
 * with jitter, a minute doubling up to an hour, and given up three days after it was queued; a mail
 * the server refused for good (5xx to it) is not tried again. While the server fails, this process
 * pauses (the same backoff) instead of trying every waiting mail; the first mail through again
 * makes every waiting mail due at once. Sent mails lose their content at once and their row after
 * a week.
 */
export class MailOutbox implements Mailer {
  readonly owner: string;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly concurrency: number;
  private readonly backoffMs: (attempt: number) => number;
  private readonly maxAgeMs: number;
  private readonly keepFinishedMs: number;
  private readonly stopWaitMs: number;
  private readonly now: () => Date;
  private readonly running = new Set<Promise<void>>();
  private readonly passes: CoalescedRun;
  private timer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private started = false;
  /** Failed attempts in a row in this process, and the time before which it tries no mail. */
  private failuresInRow = 0;
  private pausedUntil = 0;

  constructor(
    private readonly deps: MailOutboxDeps,
    options: MailOutboxOptions = {},
  ) {
    this.owner = options.owner ?? `mail-${randomUUID()}`;
    this.pollMs = options.pollMs ?? 5_000;
    this.leaseMs = options.leaseMs ?? 2 * minute;
    this.concurrency = Math.max(1, options.concurrency ?? 2);
    const random = options.random ?? Math.random;
    this.backoffMs = options.backoffMs ?? ((attempt) => defaultMailBackoff(attempt, random));
    this.maxAgeMs = options.maxAgeMs ?? 3 * 24 * hour;
    this.keepFinishedMs = options.keepFinishedMs ?? 7 * 24 * hour;
    this.stopWaitMs = options.stopWaitMs ?? 5_000;
    this.now = options.now ?? (() => new Date());
    this.passes = new CoalescedRun(
      () => this.pump(),
      (error: unknown) => this.deps.log.warn({ err: error }, "the mail outbox could not be read"),
    );
  }

  /** Queues the mail; it is sent by this process's worker (or another's) as soon as it can be. */
  async send(message: MailMessage, options: MailSendOptions = {}): Promise<void> {
    const id = randomUUID();
    const stored: MailMessage = { ...message, messageId: message.messageId ?? `${id}@${this.deps.messageIdDomain}` };
    await this.deps.repository.insert(
      { id, kind: message.kind ?? "mail", sealed: this.deps.seal.seal(id, stored), now: this.iso(0) },
      options.transaction ?? this.deps.db,
    );
    if (!options.transaction) return this.wake();
    // Visible to the worker once the caller's transaction commits, which this cannot see: look
    // again shortly (the poll would find it anyway).
    for (const delay of [0, 20, 200, 1000]) setTimeout(() => this.wake(), delay).unref();
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.sweepTimer = setInterval(() => void this.sweep(), hour);
    this.sweepTimer.unref();
    void this.sweep();
    this.wake();
  }

  /** Takes no more mails; waits a little for the sends under way, then leaves them to their leases. */
  async stop(): Promise<void> {
    this.started = false;
    clearInterval(this.timer);
    clearInterval(this.sweepTimer);
    let timeout: NodeJS.Timeout | undefined;
    await Promise.race([
      this.settle(),
      new Promise<void>((resolve) => {
        timeout = setTimeout(resolve, this.stopWaitMs);
      }),
    ]);
    clearTimeout(timeout);
  }

  close(): Promise<void> {
    return this.stop();
  }

  /** Looks for due mails now (unless paused after a failure). */
  wake(): void {
    if (!this.started || this.now().getTime() < this.pausedUntil) return;
    this.passes.wake();
  }

  /** Resolves once no pass and no send is under way (tests wait on it instead of sleeping). */
  async settle(): Promise<void> {
    while (this.passes.current || this.running.size > 0) {
      await this.passes.current;
      await Promise.all(this.running);
    }
  }

  /** Gives up mails too old (even while paused) and removes the rows of mails finished a week ago. */
  async sweep(): Promise<void> {
    const { repository, log } = this.deps;
    try {
      const expired = await repository.expire(this.iso(-this.maxAgeMs), this.iso(0));
      if (expired > 0) log.warn({ mails: expired }, "mails given up: not sent within their time");
      await repository.pruneFinished(this.iso(-this.keepFinishedMs));
    } catch (error) {
      log.warn({ err: error }, "sweeping the mail outbox failed");
    }
  }

  async health(): Promise<MailHealth> {
    const summary: MailQueueSummary = await this.deps.repository.summary();
    const oldest = summary.oldestWaitingSince === null ? null : Date.parse(summary.oldestWaitingSince);
    return {
      status: summary.latestAttemptFailed && summary.waiting > 0 ? "degraded" : "ok",
      waiting: summary.waiting,
      oldestWaitingSeconds: oldest === null ? null : Math.max(0, Math.floor((this.now().getTime() - oldest) / 1000)),
      lastFailureAt: summary.lastFailureAt,
    };
  }

  private async pump(): Promise<void> {
    while (this.started && this.running.size < this.concurrency && this.now().getTime() >= this.pausedUntil) {
      const row = await this.deps.repository.claim(this.owner, this.iso(0), this.iso(this.leaseMs));
      if (!row) return;
      const done: Promise<void> = this.run(row).finally(() => {
        this.running.delete(done);
        this.wake();
      });
      this.running.add(done);
    }
  }

  private async run(row: MailOutboxRow): Promise<void> {
    const { repository, seal, transport, log } = this.deps;
    const mail = { mail: row.id, kind: row.kind, attempts: row.attempts };
    try {
      const queuedAt = Date.parse(row.created_at);
      if (this.now().getTime() - queuedAt >= this.maxAgeMs) {
        await repository.finish(row.id, this.owner, { state: "failed" }, row.last_error ?? "expired", this.iso(0), false);
        log.warn({ ...mail, error: row.last_error }, "mail given up: not sent within its time");
        return;
      }
      const message = row.sealed === null ? undefined : seal.open(row.id, row.sealed);
      if (!message) {
        await repository.finish(row.id, this.owner, { state: "failed" }, "unreadable", this.iso(0), false);
        log.warn(mail, "mail given up: it does not open with this server's key");
        return;
      }
      try {
        await transport.send(message);
      } catch (error) {
        const failure = error instanceof MailDeliveryError ? error : new MailDeliveryError({ cause: error });
        if (failure.permanent) {
          await repository.finish(row.id, this.owner, { state: "rejected" }, failure.reason, this.iso(0));
          log.warn({ ...mail, error: failure.reason }, "mail refused by the mail server; not tried again");
          await this.serverAnswered();
          return;
        }
        this.failuresInRow += 1;
        this.pausedUntil = this.now().getTime() + this.backoffMs(this.failuresInRow);
        const retryAt = this.now().getTime() + this.backoffMs(row.attempts);
        const giveUp = retryAt - queuedAt >= this.maxAgeMs;
        await repository.finish(
          row.id,
          this.owner,
          giveUp ? { state: "failed" } : { state: "queued", retryAt: new Date(retryAt).toISOString() },
          failure.reason,
          this.iso(0),
        );
        if (giveUp) log.warn({ ...mail, error: failure.reason }, "mail given up: not sent within its time");
        else
          log.info(
            { ...mail, error: failure.reason, retryAt: new Date(retryAt).toISOString() },
            "mail not sent yet; will try again",
          );
        return;
      }
      await repository.finish(row.id, this.owner, { state: "sent" }, null, this.iso(0));
      await this.serverAnswered();
    } catch (error) {
      // Not even recorded (the database went away): the lease expires and the mail is taken again.
      log.warn({ ...mail, err: error }, "the mail outbox could not record a send");
    }
  }

  /** The mail server took (or refused) a mail: after failures, everything waiting is due now. */
  private async serverAnswered(): Promise<void> {
    if (this.failuresInRow === 0) return;
    this.failuresInRow = 0;
    this.pausedUntil = 0;
    const released = await this.deps.repository.releaseWaiting(this.iso(0));
    this.deps.log.info({ released }, "the mail server answers again; sending the mails that waited");
  }

  private iso(offsetMs: number): string {
    return new Date(this.now().getTime() + offsetMs).toISOString();
  }
}
