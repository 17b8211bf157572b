import type { FastifyRequest } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { answerErrorsWith, renderStorageError } from "../../plugins/error-handler";
import { bucketSortColumns, type BucketsService } from "./buckets.service";

export interface StorageRoutesOptions {
  buckets: BucketsService;
  /** Throws unless the request carries a service-role token. */
  requireServiceRole: (request: FastifyRequest) => Promise<void>;
}

const fileSizeLimitRule =
  "file_size_limit must be a whole number of bytes from 1 to 2147483647, or a string of digits with an optional unit b, kb, mb or gb (decimal: 1kb is 1000 bytes), such as '1024', '20mb' or '1 GB'.";
const units: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9 };

/**
 * A bucket's size limit in bytes, read as Supabase Storage reads it: a number, or digits with an
 * optional decimal unit. Undefined when it is neither, or not a whole number of bytes the column
 * holds (PostgreSQL's is a 32-bit integer).
 */
export function fileSizeLimitBytes(value: number | string): number | undefined {
  let bytes: number;
  if (typeof value === "number") bytes = value;
  else {
    const match = /^\s*(\d{1,12})\s*(b|kb|mb|gb)?\s*$/i.exec(value);
    if (!match?.[1]) return undefined;
    bytes = Number(match[1]) * units[(match[2] ?? "b").toLowerCase()]!;
  }
  return Number.isInteger(bytes) && bytes >= 1 && bytes <= 2_147_483_647 ? bytes : undefined;
}

const BucketParams = z.object({ id: z.string().min(1).max(100) });
const BucketSettings = z.looseObject({
  public: z.boolean().optional().meta({
    description:
      "Stored and reported for Supabase clients; it serves nothing: Memory Box has no public object URL, so every object needs a member's session or a signature whatever this says. The photo bucket refuses it.",
  }),
  file_size_limit: z
    .union([z.number(), z.string().max(40), z.null()])
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === null) return value;
      const bytes = fileSizeLimitBytes(value);
      if (bytes === undefined) {
        context.addIssue({ code: "custom", message: fileSizeLimitRule });
        return z.NEVER;
      }
      return bytes;
    })
    .meta({ description: `Bytes. ${fileSizeLimitRule}` }),
  allowed_mime_types: z.union([z.array(z.string().max(100)).max(100), z.null()]).optional(),
});
const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).max(1_000_000).optional(),
  search: z.string().max(100).optional().meta({ description: "Part of the bucket's name, case-insensitive." }),
  sortColumn: z.enum(bucketSortColumns).optional(),
  sortOrder: z.enum(["asc", "desc"]).optional(),
});
const CreateBucket = BucketSettings.extend({ id: z.string().max(100).optional(), name: z.string().min(1).max(100) });

/**
 * `/storage/v1/bucket`: bucket management as Supabase Storage shapes it, for operators holding a
 * service-role token. Errors carry Storage's `{statusCode, error, message}` and our `code`.
 */
export const storageRoutes: FastifyPluginAsyncZod<StorageRoutesOptions> = async (app, { buckets, requireServiceRole }) => {
  answerErrorsWith(app, renderStorageError);
  app.addHook("onRequest", async (request) => requireServiceRole(request));

  app.get(
    "/storage/v1/bucket",
    {
      schema: {
        tags: ["storage"],
        summary: "List buckets",
        description: "By name unless sortColumn (id, name, created_at, updated_at) and sortOrder (asc, desc) say otherwise.",
        querystring: ListQuery,
      },
    },
    (request) => buckets.list(request.query),
  );
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
