import { z } from "zod";

/**
 * `memory-box.json`, version 1: the members and every memory of an instance, with where each
 * photo's original bytes are inside the archive. Described for other programs by
 * docs/formats/memory-box-v1.schema.json, which a test keeps equal to this schema.
 */
export const ArchivePhoto = z.object({
  id: z.uuid(),
  position: z.number().int().min(0),
  taken_at: z.string().nullable(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  content_type: z.string(),
  bytes: z.number().int().min(0),
  /** The path of the original's bytes inside the archive, under `photos/`. */
  file: z.string().regex(/^photos\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.[a-z0-9]{1,5}$/),
});

export const ArchiveMemory = z.object({
  id: z.uuid(),
  title: z.string(),
  content: z.string().nullable(),
  /** "YYYY-MM-DD" or null. */
  memory_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable(),
  tags: z.array(z.string()),
  /** The author, one of `members`; null when their account was deleted. */
  user_id: z.uuid().nullable(),
  /** The author's display name when exported ("Unknown User" without an author). */
  display_name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  photos: z.array(ArchivePhoto),
});

export const ArchiveMember = z.object({
  id: z.uuid(),
  email: z.string(),
  display_name: z.string(),
});

export const ArchiveManifest = z.object({
  format: z.literal("memory-box"),
  version: z.literal(1),
  exported_at: z.string(),
  members: z.array(ArchiveMember),
  memories: z.array(ArchiveMemory),
});

export type ArchivePhoto = z.infer<typeof ArchivePhoto>;
export type ArchiveMemory = z.infer<typeof ArchiveMemory>;
export type ArchiveMember = z.infer<typeof ArchiveMember>;
export type ArchiveManifest = z.infer<typeof ArchiveManifest>;

/** What the spec calls a memory without an author. */
export const unknownAuthor = "Unknown User";

const extensions: Record<string, string> = {
  "image/jpeg": "jpg",
  "image/png": "png",
  "image/webp": "webp",
  "image/gif": "gif",
  "image/heic": "heic",
  "image/heif": "heif",
  "image/avif": "avif",
  "image/tiff": "tif",
};

/** Where a photo's original lives in the archive: by memory, named by the photo's id. */
export function photoFile(memoryId: string, photoId: string, contentType: string): string {
  return `photos/${memoryId}/${photoId}.${extensions[contentType] ?? "bin"}`;
}

/** The browsable page of one memory, relative to the archive's root. */
export function memoryPage(memoryId: string): string {
  return `memories/${memoryId}.html`;
}
