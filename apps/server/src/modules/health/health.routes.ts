import { HealthResponse } from "@memory-box/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import { pingDatabase } from "../../db/database";
import type { Database } from "../../db/schema";
import type { MailHealth } from "../mail";
import type { BlobStore } from "../storage";

interface HealthRoutesOptions {
  db: Kysely<Database>;
  blobStore: BlobStore;
  version: string;
  /** Below this much free space (MB) storage reports `low_space`. */
  storageMinFreeMb: number;
  /** The mail outbox's state (ADR 0077). */
  mail: () => Promise<MailHealth>;
}

/**
 * For load balancers and operators: does this process reach its database and its photo storage,
 * and do mails leave? Each part that fails or lags is named; only a failing database or storage
 * answers 503 (the process cannot serve), mail waiting for its server does not.
 */
export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (
  app,
  { db, blobStore, version, storageMinFreeMb, mail },
) => {
  app.get(
    "/api/health",
    {
      schema: {
        summary: "Health of this server process",
        tags: ["health"],
        response: { 200: HealthResponse, 503: HealthResponse },
      },
    },
    async (request, reply) => {
      const probe = async (component: string, check: () => Promise<void>) => {
        try {
          await check();
          return "ok" as const;
        } catch (error) {
          request.log.error({ component, err: error }, "health check failed");
          return "error" as const;
        }
      };
      const [database, storageWorks, freeBytes, mailHealth] = await Promise.all([
        probe("database", () => pingDatabase(db)),
        probe("storage", () => blobStore.check()),
        blobStore.freeBytes().catch(() => null),
        mail().catch((error: unknown) => {
          request.log.error({ component: "mail", err: error }, "health check failed");
          return null;
        }),
      ]);
      const freeMb = freeBytes === null ? null : Math.floor(freeBytes / 2 ** 20);
      const lowSpace = freeMb !== null && freeMb < storageMinFreeMb;
      if (lowSpace) request.log.warn({ freeMb, minFreeMb: storageMinFreeMb }, "photo storage is running out of space");
      const storage = storageWorks === "ok" && lowSpace ? "low_space" : storageWorks;
      const mailStatus = mailHealth?.status ?? "error";
      if (mailStatus === "degraded") request.log.warn({ waiting: mailHealth?.waiting }, "mails wait for the mail server");
      const body: HealthResponse = {
        status: database === "ok" && storage === "ok" && mailStatus === "ok" ? "ok" : "degraded",
        database,
        storage,
        storage_free_mb: freeMb,
        mail: mailStatus,
        mail_queue: mailHealth && {
          waiting: mailHealth.waiting,
          oldest_waiting_seconds: mailHealth.oldestWaitingSeconds,
          last_failure_at: mailHealth.lastFailureAt,
        },
        version,
      };
      // Low space still works: 503 only when something fails, so a balancer keeps sending traffic.
      return reply
        .status(database === "ok" && storageWorks === "ok" ? 200 : 503)
        .header("cache-control", "no-store")
        .send(body);
    },
  );
};
