import type { BucketRow } from "../../db/schema";
import { AppError } from "../../errors";
import type { BlobStore } from "./blob-store";
import type { BucketListOptions, BucketsRepository } from "./buckets.repository";

/** The columns a listing may be sorted by. */
export { bucketSortColumns } from "./buckets.repository";

export const photoBucketId = "memory-photos";

export interface BucketSettings {
  public?: boolean | undefined;
  file_size_limit?: number | null | undefined;
  allowed_mime_types?: string[] | null | undefined;
}

/** Supabase Storage's bucket object. */
export interface BucketJson {
  id: string;
  name: string;
  owner: string;
  public: boolean;
  file_size_limit: number | null;
  allowed_mime_types: string[] | null;
  created_at: string;
  updated_at: string;
}

const bucketNotFound = () => new AppError("not_found", { message: "Bucket not found" });

/**
 * Bucket management for operators (service role). Objects of bucket `b` live under the blob
 * key prefix `b/`. The photo bucket can be emptied (which removes every photo) but never
 * deleted, and never made public: photos are served only through signed URLs. Other buckets
 * may say `public` (Supabase clients set it); it is stored and reported, and serves nothing, as
 * Memory Box has no public object URL (ADR 0024).
 */
export class BucketsService {
  constructor(private readonly deps: { buckets: BucketsRepository; blobStore: BlobStore; now?: () => Date }) {}

  private now(): string {
    return (this.deps.now?.() ?? new Date()).toISOString();
  }

  async list(options: BucketListOptions = {}): Promise<BucketJson[]> {
    return (await this.deps.buckets.list(options)).map(present);
  }

  async get(id: string): Promise<BucketJson> {
    const bucket = await this.deps.buckets.find(id);
    if (!bucket) throw bucketNotFound();
    return present(bucket);
  }

  async create(input: { id?: string | undefined; name: string } & BucketSettings): Promise<{ name: string }> {
    const id = input.id ?? input.name;
    if (!/^[a-z0-9][a-z0-9._-]{1,62}$/.test(id) || (input.id !== undefined && input.id !== input.name)) {
      throw new AppError("invalid_bucket_name");
    }
    const now = this.now();
    const created = await this.deps.buckets.insert({
      id,
      name: id,
      file_size_limit: null,
      allowed_mime_types: null,
      ...columns(input),
      public: input.public ? 1 : 0,
      created_at: now,
      updated_at: now,
    });
    if (!created) throw new AppError("already_exists");
    return { name: id };
  }

  async update(id: string, settings: BucketSettings): Promise<{ message: string }> {
    if (id === photoBucketId && settings.public) throw new AppError("photos_stay_private");
    const changes = { ...columns(settings), ...(settings.public === undefined ? {} : { public: settings.public ? 1 : 0 }) };
    if (!(await this.deps.buckets.update(id, changes, this.now()))) throw bucketNotFound();
    return { message: "Successfully updated" };
  }

  async empty(id: string): Promise<{ message: string }> {
    await this.get(id);
    // Rows first: a photo without its file shows as broken, a file without its row is never served.
    if (id === photoBucketId) await this.deps.buckets.deletePhotoRows();
    for await (const object of this.deps.blobStore.list(`${id}/`)) await this.deps.blobStore.delete(object.key);
    return { message: "Successfully emptied" };
  }

  async delete(id: string): Promise<{ message: string }> {
    if (id === photoBucketId) throw new AppError("bucket_required");
    await this.get(id);
    for await (const _object of this.deps.blobStore.list(`${id}/`)) {
      throw new AppError("bucket_not_empty");
    }
    await this.deps.buckets.delete(id);
    return { message: "Successfully deleted" };
  }
}

function columns(settings: BucketSettings): Partial<Pick<BucketRow, "file_size_limit" | "allowed_mime_types">> {
  return {
    ...(settings.file_size_limit === undefined ? {} : { file_size_limit: settings.file_size_limit }),
    ...(settings.allowed_mime_types === undefined
      ? {}
      : { allowed_mime_types: settings.allowed_mime_types === null ? null : JSON.stringify(settings.allowed_mime_types) }),
  };
}

function present(bucket: BucketRow): BucketJson {
  return {
    id: bucket.id,
    name: bucket.name,
    owner: "",
    public: bucket.public === 1,
    file_size_limit: bucket.file_size_limit,
    allowed_mime_types: bucket.allowed_mime_types === null ? null : (JSON.parse(bucket.allowed_mime_types) as string[]),
    created_at: bucket.created_at,
    updated_at: bucket.updated_at,
  };
}
