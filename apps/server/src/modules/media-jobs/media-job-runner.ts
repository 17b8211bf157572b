import { randomUUID } from "node:crypto";
import { CoalescedRun } from "../../lib/coalesced-run";
import type { MediaJobRow } from "../../db/schema";
import type { MediaJobsRepository } from "./media-jobs.repository";

/** A failure with the code kept on the job (`ffmpeg_failed`, `corrupt_video`…); other errors keep `job_failed`. */
export class MediaJobError extends Error {
  constructor(
    readonly code: string,
    message = code,
  ) {
    super(message);
    this.name = "MediaJobError";
  }
}

export interface MediaJobContext {
  job: MediaJobRow;
  /** Aborted when the runner stops abandoning its jobs, or the job's lease was lost to another runner. */
  signal: AbortSignal;
  /** Records the progress (0..1) and renews the lease. */
  progress: (fraction: number) => Promise<void>;
}

export type MediaJobHandler = (context: MediaJobContext) => Promise<void>;

/** A job's progress as the runner records it: the hook the web app's live updates hang on. */
export interface MediaJobProgress {
  jobId: string;
  subjectId: string;
  kind: string;
  state: MediaJobRow["state"];
  progress: number;
  errorCode: string | null;
}

export interface MediaJobRunnerOptions {
  /** How many jobs run at once in this process (`MEDIA_JOBS_CONCURRENCY`, 1 by default). */
  concurrency?: number;
  /** How long a claimed job stays this runner's without a renewal; renewed every third of it. */
  leaseMs?: number;
  /** How often the table is looked at for due jobs (an enqueue through this runner looks at once). */
  pollMs?: number;
  /** Attempts before a job is failed for good (a lease that expired counts as one). */
  maxAttempts?: number;
  /** Wait before attempt `attempt + 1`, after attempt `attempt` failed. */
  backoffMs?: (attempt: number) => number;
  /** Called on each change of a job's state or progress. */
  onProgress?: (progress: MediaJobProgress) => void;
  /** Names this runner in `lease_owner`. */
  owner?: string;
  now?: () => Date;
}

interface RunningJob {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Runs the jobs of the `media_jobs` table (ADR 0054) with the handlers registered by kind: claims
 * the oldest due job while fewer than `concurrency` run here, renews its lease while the handler
 * works, and records done, a retry after a backoff, or failed. Everything it knows is in the
 * table, so a restart, or another process, carries on where a killed one stopped.
 */
export class MediaJobRunner {
  readonly owner: string;
  private readonly handlers = new Map<string, MediaJobHandler>();
  private readonly running = new Map<string, RunningJob>();
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly pollMs: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: (attempt: number) => number;
  private readonly now: () => Date;
  private timer: NodeJS.Timeout | undefined;
  private started = false;
  private readonly passes = new CoalescedRun(
    () => this.pump(),
    () => {
      // The database is unreachable for now: the next poll tries again.
    },
  );

  constructor(
    private readonly repository: MediaJobsRepository,
    private readonly options: MediaJobRunnerOptions = {},
  ) {
    this.owner = options.owner ?? `runner-${randomUUID()}`;
    this.concurrency = Math.max(1, options.concurrency ?? 1);
    this.leaseMs = options.leaseMs ?? 60_000;
    this.pollMs = options.pollMs ?? 5_000;
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 3);
    this.backoffMs = options.backoffMs ?? ((attempt) => Math.min(30_000 * 2 ** (attempt - 1), 15 * 60_000));
    this.now = options.now ?? (() => new Date());
  }

  register(kind: string, handler: MediaJobHandler): this {
    this.handlers.set(kind, handler);
    return this;
  }

  /** Adds a job and, when this runner is started, looks for work at once. */
  async enqueue(kind: string, subjectId: string): Promise<MediaJobRow> {
    const job = await this.repository.enqueue(kind, subjectId, this.iso(0));
    this.report(job);
    this.wake();
    return job;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  /**
   * Takes no more jobs. Waits for the running handlers, or with `abandon` aborts them and returns at
   * once, writing nothing: their leases expire and another runner (or the next start) takes them.
   */
  async stop(options: { abandon?: boolean } = {}): Promise<void> {
    this.started = false;
    clearInterval(this.timer);
    this.timer = undefined;
    if (options.abandon) {
      for (const job of this.running.values()) job.controller.abort();
      this.running.clear();
      return;
    }
    await this.passes.current;
    await Promise.all([...this.running.values()].map((job) => job.done));
  }

  /** How many jobs run here now. */
  get active(): number {
    return this.running.size;
  }

  /** Looks for due jobs now (a poll, an enqueue, a finished job). */
  wake(): void {
    if (!this.started) return;
    this.passes.wake();
  }

  private async pump(): Promise<void> {
    while (this.started && this.running.size < this.concurrency) {
      const job = await this.repository.claim([...this.handlers.keys()], this.owner, this.iso(0), this.iso(this.leaseMs));
      if (!job) return;
      if (!this.started) {
        // Stopped while claiming: the job is left to its lease, like any abandoned one.
        return;
      }
      if (job.attempts > this.maxAttempts) {
        // Taken again after its runners died this many times: failed for good, not run once more.
        await this.repository.fail(job.id, this.owner, "abandoned", this.iso(0), null);
        this.report({ ...job, state: "failed", error_code: "abandoned" });
        continue;
      }
      this.run(job);
    }
  }

  private run(job: MediaJobRow): void {
    const controller = new AbortController();
    const entry: RunningJob = { controller, done: Promise.resolve() };
    this.running.set(job.id, entry);
    this.report(job);
    let progress = job.progress;
    const renew = async (fraction?: number) => {
      if (controller.signal.aborted) return;
      const held = await this.repository.renew(job.id, this.owner, this.iso(0), this.iso(this.leaseMs), fraction);
      if (!held) controller.abort();
    };
    const renewal = setInterval(() => {
      renew().catch(() => {
        // A renewal that fails is tried again on the next tick; the lease covers three of them.
      });
    }, this.leaseMs / 3);
    renewal.unref();
    const handler = this.handlers.get(job.kind)!;
    entry.done = (async () => {
      let failure: unknown;
      try {
        await handler({
          job,
          signal: controller.signal,
          progress: async (fraction) => {
            progress = Math.min(1, Math.max(0, fraction));
            await renew(progress);
            if (!controller.signal.aborted) this.report({ ...job, progress });
          },
        });
      } catch (error) {
        failure = error;
      } finally {
        clearInterval(renewal);
      }
      if (controller.signal.aborted) return;
      if (failure === undefined) {
        if (await this.repository.complete(job.id, this.owner, this.iso(0))) {
          this.report({ ...job, state: "done", progress: 1 });
        }
        return;
      }
      const code = failure instanceof MediaJobError ? failure.code : "job_failed";
      const retryAt = job.attempts < this.maxAttempts ? this.iso(this.backoffMs(job.attempts)) : null;
      if (await this.repository.fail(job.id, this.owner, code, this.iso(0), retryAt)) {
        this.report({ ...job, state: retryAt === null ? "failed" : "queued", progress, error_code: code });
      }
    })()
      .catch(() => {
        // The outcome could not be written: the lease expires and the job runs again.
      })
      .finally(() => {
        if (this.running.get(job.id) === entry) this.running.delete(job.id);
        this.wake();
      });
  }

  private report(job: MediaJobRow): void {
    this.options.onProgress?.({
      jobId: job.id,
      subjectId: job.subject_id,
      kind: job.kind,
      state: job.state,
      progress: job.progress,
      errorCode: job.error_code,
    });
  }

  private iso(offsetMs: number): string {
    return new Date(this.now().getTime() + offsetMs).toISOString();
  }
}
