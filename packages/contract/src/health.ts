import { z } from "zod";

const ComponentStatus = z.enum(["ok", "error"]);

/** `GET /api/health`: 200 when every component answers, 503 otherwise. */
export const HealthResponse = z.object({
  status: z.enum(["ok", "degraded"]),
  database: ComponentStatus,
  storage: ComponentStatus,
  version: z.string(),
});
export type HealthResponse = z.infer<typeof HealthResponse>;
