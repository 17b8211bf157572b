import { z } from "zod";

const ComponentStatus = z.enum(["ok", "error"]);

/**
 * `GET /api/health`: 200 when every component answers, 503 otherwise. Storage that works but has
 * less free space than `STORAGE_MIN_FREE_MB` is `low_space`: still 200 (nothing fails yet), with
 * the overall status `degraded` so monitoring can warn before uploads start failing.
 */
export const HealthResponse = z.object({
  status: z.enum(["ok", "degraded"]),
  database: ComponentStatus,
  storage: z.enum(["ok", "low_space", "error"]),
  /** Free space where photos are stored, in MB; null where the storage does not tell (S3). */
  storage_free_mb: z.number().nullable(),
  version: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
