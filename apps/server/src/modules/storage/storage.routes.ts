import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { answerErrorsWith, renderStorageError } from "../../plugins/error-handler";
import type { BucketsService } from "./buckets.service";

export interface StorageRoutesOptions {
  buckets: BucketsService;
  /** Throws unless the request carries a service-role token. */
  requireServiceRole: (request: FastifyRequest) => Promise<void>;
}

const BucketParams = z.object({ id: z.string().min(1).max(100) });
const BucketSettings = z.looseObject({
  public: z.boolean().optional(),
  // An integer column: PostgreSQL's is 32-bit.
  file_size_limit: z.union([z.number().int().positive().max(2_147_483_647), z.null()]).optional(),
  allowed_mime_types: z.union([z.array(z.string().max(100)).max(100), z.null()]).optional(),
});
const CreateBucket = BucketSettings.extend({ id: z.string().max(100).optional(), name: z.string().min(1).max(100) });

/**
 * `/storage/v1/bucket`: bucket management as Supabase Storage shapes it, for operators holding a
 * service-role token. Errors carry Storage's `{statusCode, error, message}` and our `code`.
 */
export const storageRoutes: FastifyPluginAsyncZod<StorageRoutesOptions> = async (app, { buckets, requireServiceRole }) => {
  answerErrorsWith(app, renderStorageError);
  app.addHook("onRequest", async (request) => requireServiceRole(request));

  app.get("/storage/v1/bucket", { schema: { tags: ["storage"], summary: "List buckets" } }, () => buckets.list());
  app.get("/storage/v1/bucket/:id", { schema: { tags: ["storage"], summary: "One bucket", params: BucketParams } }, (request) =>
    buckets.get(request.params.id),
  );
  app.post("/storage/v1/bucket", { schema: { tags: ["storage"], summary: "Create a bucket", body: CreateBucket } }, (request) =>
    buckets.create(request.body),
  );
  app.put(
    "/storage/v1/bucket/:id",
    { schema: { tags: ["storage"], summary: "Change a bucket's settings", params: BucketParams, body: BucketSettings } },
    (request) => buckets.update(request.params.id, request.body),
  );
  app.post(
    "/storage/v1/bucket/:id/empty",
    { schema: { tags: ["storage"], summary: "Delete every object in a bucket", params: BucketParams } },
    (request) => buckets.empty(request.params.id),
  );
  app.delete(
    "/storage/v1/bucket/:id",
    { schema: { tags: ["storage"], summary: "Delete an empty bucket", params: BucketParams } },
    (request) => buckets.delete(request.params.id),
  );
};
