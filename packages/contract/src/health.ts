import { z } from "zod";

const ComponentStatus = z.enum(["ok", "error"]);

/**
 * The mail outbox (ADR 0077), without addresses or links: how many mails wait to be sent, since
 * when the oldest waits, and when an attempt to send last failed. Null when the database (which
 * holds the outbox) does not answer.
 */
export const MailQueueHealth = z.object({
  waiting: z.number().int(),
  oldest_waiting_seconds: z.number().int().nullable(),
  last_failure_at: z.string().nullable(),
});
export type MailQueueHealth = z.infer<typeof MailQueueHealth>;

/**
 * `GET /api/health`: 200 when every component answers, 503 otherwise. Storage that works but has
 * less free space than `STORAGE_MIN_FREE_MB` is `low_space`: still 200 (nothing fails yet), with
 * the overall status `degraded` so monitoring can warn before uploads start failing. Mail is
 * `degraded` while the mail server does not take mails (they wait in the outbox): 200 too, since
 * requests do not wait on it; `error` when the outbox cannot be read.
 */
export const HealthResponse = z.object({
  status: z.enum(["ok", "degraded"]),
  database: ComponentStatus,
  storage: z.enum(["ok", "low_space", "error"]),
  /** Free space where photos are stored, in MB; null where the storage does not tell (S3). */
  storage_free_mb: z.number().nullable(),
  mail: z.enum(["ok", "degraded", "error"]),
  mail_queue: MailQueueHealth.nullable(),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
