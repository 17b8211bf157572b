import type { Readable } from "node:stream";
import { defaultLocale } from "@memory-box/messages";
import { serverMessages } from "@memory-box/messages/server";
import type { z } from "zod";
import type { ErrorText } from "../../errors";
import { InvalidZipError } from "../../lib/zip-reader";
import type { ArchiveManifest } from "./archive-format";

/**
 * An archive to import, whatever wrote it (a Memory Box export, a Day One export): its manifest in
 * the memory-box format (docs/formats/memory-box.md), and the bytes of each photo it names. Readers check their own
 * container (entry names, sizes, bombs) before they return one; the importer checks the manifest's
 * rules and every photo's bytes as it reads them.
 */
export interface ArchiveSource {
  manifest: ArchiveManifest;
  /** The size in bytes of the file a photo's `file` names, or undefined when the archive has none. */
  sizeOf(file: string): number | undefined;
  /** The bytes of a photo's `file`; the stream fails if they are not `sizeOf(file)` bytes. */
  open(file: string): Promise<Readable>;
  close(): Promise<void>;
}

/** Why an archive is refused: shown to the member as it is, so it says what is wrong in words. */
export class ArchiveRefusedError extends Error {
  /** The refusal as a text of the server's catalogue, said in the member's language; else `message` as written. */
  readonly text: ErrorText | undefined;

  constructor(message: string | ErrorText) {
    super(typeof message === "string" ? message : serverMessages(defaultLocale).format(message.id, message.values));
    this.name = "ArchiveRefusedError";
    this.text = typeof message === "string" ? undefined : message;
  }
}

/**
 * A refusal in words for the first thing a reader's schema found wrong: `lead` names the file and
 * what it should have been, then where in it (`prefix` and the issue's path) and what is wrong.
 */
export function describeIssue(lead: string, issue: z.core.$ZodIssue, prefix: (string | number)[]): string {
  const where = [...prefix, ...issue.path].map(String).join(".");
  return `${lead}: ${where || "the file"} ${issue.message}.`;
}

/**
 * What a ZIP-level failure (damaged, not a ZIP, built to harm) means to the member: a refusal in
 * words, led by `lead`; any other error is passed on as it is.
 */
export function refusedZip(error: unknown, lead = "The archive cannot be read safely"): Error {
  if (error instanceof InvalidZipError) return new ArchiveRefusedError(`${lead}: ${error.message}.`);
  return error as Error;
}

/** Limits a reader holds an archive to, so a hostile file cannot exhaust memory or disk. */
export interface ArchiveLimits {
  /** Most files in the ZIP. */
  maxEntries: number;
  /** Largest manifest (JSON), uncompressed. */
  maxManifestBytes: number;
  /** Largest photo, uncompressed (the upload limit). */
  maxPhotoBytes: number;
  /** Largest video or Live Photo clip, uncompressed (`VIDEO_MAX_BYTES`). */
  maxVideoBytes: number;
  /** Most bytes of all the files the import reads, uncompressed. */
  maxTotalBytes: number;
}

// A lifetime's archive (issue #37: a million memories, 300,000 photos) holds about 1.6 million
// files and a manifest of about 500 MB; these limits take one of twice that.
export const defaultArchiveLimits: ArchiveLimits = {
  maxEntries: 4_000_000,
  maxManifestBytes: 1024 * 1024 * 1024,
  maxPhotoBytes: 50 * 1024 * 1024,
  maxVideoBytes: 2 * 1024 * 1024 * 1024,
  maxTotalBytes: 1024 * 1024 * 1024 * 1024,
};
