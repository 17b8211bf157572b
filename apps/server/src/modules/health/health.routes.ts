import { HealthResponse } from "@memory-box/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { Kysely } from "kysely";
import { pingDatabase } from "../../db/database";
import type { Database } from "../../db/schema";
import type { BlobStore } from "../storage";

interface HealthRoutesOptions {
  db: Kysely<Database>;
  blobStore: BlobStore;
  version: string;
}

/** For load balancers and operators: does this process reach its database and its photo storage? */
export const healthRoutes: FastifyPluginAsyncZod<HealthRoutesOptions> = async (app, { db, blobStore, version }) => {
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
      const [database, storage] = await Promise.all([
        probe("database", () => pingDatabase(db)),
        probe("storage", () => blobStore.check()),
      ]);
      const body: HealthResponse = {
        status: database === "ok" && storage === "ok" ? "ok" : "degraded",
        database,
        storage,
        version,
      };
      return reply
        .status(body.status === "ok" ? 200 : 503)
        .header("cache-control", "no-store")
        .send(body);
    },
  );
};
