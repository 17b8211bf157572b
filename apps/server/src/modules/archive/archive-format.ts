import { ReactionEmoji } from "@memory-box/contract";
import { z } from "zod";

/**
 * `memory-box.json`, version 6: the box's own name, cover and "together since" (ADR 0065), the
 * members and every memory of an instance with its place, cover, comments and reactions, and where
 * each photo's and video's original bytes are inside the archive, with its caption. Version 5 is
 * the same without the box (`box`), version 4 also without covers and captions (`cover_photo_id`,
 * `caption`), version 3 also without places (`place`), version 2 also without videos and Live
 * Photos (`kind`, `duration_ms`, `poster`, `motion`), version 1 also without `comments` and
 * `reactions`; all are still read. An archive is written in the lowest version that holds what it has. Described for
 * other programs by docs/formats/memory-box-v6.schema.json, which a test keeps equal to this schema.
 */
export const archiveVersion = 6;
/** The version an archive with covers or captions but no box settings is written in. */
export const archiveVersionWithoutBox = 5;
/** The version an archive with places but no cover or caption is written in. */
export const archiveVersionWithoutCovers = 4;
/** The version an archive with videos but no places is written in: every reader since videos reads it. */
export const archiveVersionWithoutPlaces = 3;
/** The version an archive without videos and Live Photos is written in: every reader since comments reads it. */
export const archiveVersionWithoutVideos = 2;
/** Every version this Memory Box reads. */
export const readableArchiveVersions: readonly number[] = [
  1,
  archiveVersionWithoutVideos,
  archiveVersionWithoutPlaces,
  archiveVersionWithoutCovers,
  archiveVersionWithoutBox,
  archiveVersion,
];

const mediaFile = /^photos\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.[a-z0-9]{1,5}$/;
const motionClipFile = /^photos\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.motion\.[a-z0-9]{1,5}$/;

/** Whether an archive's file is one a photo's `file` or a Live Photo's clip can name (what an import reads). */
export function isArchivedMediaFile(name: string): boolean {
  return mediaFile.test(name) || motionClipFile.test(name);
}

export const ArchiveMotion = z.object({
  file: z
    .string()
    .regex(motionClipFile)
    .describe("Path of the clip's bytes inside the archive: byte for byte what the member uploaded."),
  content_type: z.string().describe("Media type of the clip, such as video/quicktime."),
  bytes: z.number().int().min(0).describe("Size of the clip in bytes."),
});

export const ArchivePhoto = z.object({
  id: z.uuid(),
  position: z.number().int().min(0).describe("Place in the memory's display order, from 0."),
  taken_at: z.string().nullable().describe("When the camera says it was taken (ISO 8601), or null."),
  width: z.number().int().positive().describe("Width in pixels as shown (upright)."),
  height: z.number().int().positive().describe("Height in pixels as shown (upright)."),
  content_type: z.string().describe("Media type of the original, such as image/jpeg."),
  bytes: z.number().int().min(0).describe("Size of the original in bytes."),
  file: z
    .string()
    .regex(mediaFile)
    .describe("Path of the original's bytes inside the archive: byte for byte what the member uploaded."),
  kind: z
    .enum(["photo", "video", "live"])
    .optional()
    .describe("A still (also when absent), a video, or a Live Photo: a still with its motion. Version 3."),
  duration_ms: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("A video's length, or a Live Photo's motion's, in milliseconds. Version 3."),
  poster: z
    .string()
    .regex(/^photos\/[0-9a-f-]{36}\/[0-9a-f-]{36}\.poster\.[a-z0-9]{1,5}$/)
    .optional()
    .describe("A video's poster frame (an image made from it, shown before it plays). Version 3."),
  motion: ArchiveMotion.optional().describe("A Live Photo's clip; `file` is its still. Version 3."),
  caption: z.string().optional().describe("The member's words under the photo; absent without. Version 5."),
});

export const ArchiveComment = z.object({
  id: z.uuid(),
  user_id: z.uuid().nullable().describe("The author, one of members; null once their account was deleted."),
  display_name: z.string().describe('The author\'s display name when exported; "Unknown User" without an author.'),
  body: z.string().describe("The text, as the member wrote it."),
  created_at: z.string().describe("ISO 8601."),
  updated_at: z.string().describe("ISO 8601; equal to created_at until the comment was edited."),
});

export const ArchiveReaction = z.object({
  emoji: ReactionEmoji,
  user_id: z.uuid().describe("The member who reacted, one of members."),
});

export const ArchivePlace = z.object({
  name: z.string().describe('The place\'s name as the member chose it, such as "Sintra".'),
  latitude: z.number().min(-90).max(90).describe("WGS 84 degrees."),
  longitude: z.number().min(-180).max(180).describe("WGS 84 degrees."),
  country_code: z
    .string()
    .nullable()
    .describe("ISO 3166-1 alpha-2 of the country Memory Box found at the point, or null (at sea)."),
});

export const ArchiveMemory = z.object({
  id: z.uuid(),
  title: z.string(),
  content: z.string().nullable().describe("The description, or null."),
  memory_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .nullable()
    .describe("The day the memory is about (YYYY-MM-DD), or null."),
  tags: z.array(z.string()).describe("In the order the member gave them."),
  user_id: z.uuid().nullable().describe("The author, one of members; null once their account was deleted."),
  display_name: z.string().describe('The author\'s display name when exported; "Unknown User" without an author.'),
  created_at: z.string().describe("ISO 8601."),
  updated_at: z.string().describe("ISO 8601."),
  photos: z.array(ArchivePhoto).describe("In display order."),
  place: ArchivePlace.optional().describe("Where it happened; absent without a place. Version 4."),
  cover_photo_id: z
    .uuid()
    .optional()
    .describe("The photo that leads the memory, one of its photos; absent when the first one does. Version 5."),
  comments: z.array(ArchiveComment).optional().describe("Oldest first. Version 2; absent in version 1."),
  reactions: z
    .array(ArchiveReaction)
    .optional()
    .describe("One per member and emoji, in the reaction bar's order. Version 2; absent in version 1."),
});

export const ArchiveMember = z.object({
  id: z.uuid(),
  email: z.string().describe("How a member is recognised in another installation."),
  display_name: z.string(),
});

export const ArchiveBox = z.object({
  name: z.string().optional().describe("The box's name, as an owner set it; absent without."),
  cover_photo_id: z
    .uuid()
    .optional()
    .describe("The box's cover: one of the archive's photos, a still or a Live Photo (not a video); absent without."),
  together_since: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional()
    .describe(
      "The day the couple has been together since (YYYY-MM-DD), from the year 1000, not after the export; absent without.",
    ),
});

export const ArchiveManifest = z
  .object({
    format: z.literal("memory-box"),
    version: z
      .union([
        z.literal(1),
        z.literal(archiveVersionWithoutVideos),
        z.literal(archiveVersionWithoutPlaces),
        z.literal(archiveVersionWithoutCovers),
        z.literal(archiveVersionWithoutBox),
        z.literal(archiveVersion),
      ])
      .describe("Raised when fields are added; a reader refuses a version it does not know."),
    exported_at: z.string().describe("When the archive was written (ISO 8601)."),
    box: ArchiveBox.optional().describe("The box's own name, cover and together-since day; absent when none is set. Version 6."),
    members: z.array(ArchiveMember),
    memories: z.array(ArchiveMemory),
  })
  .describe("memory-box.json: the members and every memory of a Memory Box, version 6 (docs/formats/memory-box.md).");

export type ArchivePhoto = z.infer<typeof ArchivePhoto>;
export type ArchiveMotion = z.infer<typeof ArchiveMotion>;
export type ArchiveComment = z.infer<typeof ArchiveComment>;
export type ArchiveReaction = z.infer<typeof ArchiveReaction>;
export type ArchiveMemory = z.infer<typeof ArchiveMemory>;
export type ArchivePlace = z.infer<typeof ArchivePlace>;
export type ArchiveMember = z.infer<typeof ArchiveMember>;
export type ArchiveBox = z.infer<typeof ArchiveBox>;

/** The box's settings as stored (each null when not set), as the archive's reader and writer pass them. */
export interface BoxSettingsValues {
  name: string | null;
  cover_photo_id: string | null;
  together_since: string | null;
}

/** Whether none of the box's settings is set: nothing for an archive to carry or an import to set. */
export function nothingSet(box: BoxSettingsValues): boolean {
  return box.name === null && box.cover_photo_id === null && box.together_since === null;
}
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
  "video/mp4": "mp4",
  "video/quicktime": "mov",
  "video/webm": "webm",
  "video/x-matroska": "mkv",
};

/** Where a photo's or video's original lives in the archive: by memory, named by its id. */
export function photoFile(memoryId: string, photoId: string, contentType: string): string {
  return `photos/${memoryId}/${photoId}.${extensionOf(contentType)}`;
}

/** Where a Live Photo's clip lives: beside its still. */
export function motionFile(memoryId: string, photoId: string, contentType: string): string {
  return `photos/${memoryId}/${photoId}.motion.${extensionOf(contentType)}`;
}

/** Where a video's poster lives: beside the video (`extension` of the stored poster, webp). */
export function posterFile(memoryId: string, photoId: string, extension: string): string {
  return `photos/${memoryId}/${photoId}.poster.${extension}`;
}

function extensionOf(contentType: string): string {
  return extensions[contentType] ?? "bin";
}

/** The browsable page of one memory, relative to the archive's root. */
export function memoryPage(memoryId: string): string {
  return `memories/${memoryId}.html`;
}
