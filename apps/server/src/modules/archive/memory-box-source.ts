import { ZipReader } from "../../lib/zip-reader";
import { ArchiveManifest, ArchiveMemory, archiveVersion, isArchivedMediaFile, readableArchiveVersions } from "./archive-format";
import { ArchiveRefusedError, type ArchiveLimits, type ArchiveSource, describeIssue, refusedZip } from "./archive-source";
import { parseJsonStream, TokenType } from "./json-stream";

export const manifestFile = "memory-box.json";

/** Opens a Memory Box archive (docs/formats/memory-box.md) for import, refusing what is not one, or not one this version reads. */
export async function openMemoryBoxArchive(file: string, limits: ArchiveLimits): Promise<ArchiveSource> {
  // Only the manifest and the files a photo can name are read: the pages and their pictures are
  // checked with the rest of the directory and not kept.
  const zip = await openZip(file, limits, (name) => name === manifestFile || isArchivedMediaFile(name));
  try {
    const manifest = await readManifest(zip, limits);
    return {
      manifest,
      sizeOf: (name) => zip.entry(name)?.size,
      open: (name) => zip.open(name),
      close: async () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

/** A ZIP held to the limits, or the reason it cannot be read, in words. */
export async function openZip(file: string, limits: ArchiveLimits, keep?: (name: string) => boolean): Promise<ZipReader> {
  try {
    return await ZipReader.open(file, { maxEntries: limits.maxEntries, ...(keep && { keep }) });
  } catch (error) {
    throw refusedZip(error);
  }
}

/**
 * The manifest, parsed as it streams from the ZIP (parseJsonStream): each memory is checked against
 * the format as it arrives and kept only in its parsed form, never as the file's bytes, its text
 * and its tree at once. Refusals in words: not a Memory Box archive, a version this one does not
 * read, the first place the file is not as the format describes.
 */
export async function readManifest(zip: ZipReader, limits: ArchiveLimits): Promise<ArchiveManifest> {
  const entry = zip.entry(manifestFile);
  if (!entry) throw new ArchiveRefusedError({ id: "errorText.archive.notMemoryBox", values: { file: manifestFile } });
  if (entry.size > limits.maxManifestBytes) {
    throw new ArchiveRefusedError({
      id: "errorText.archive.manifestTooLarge",
      values: { file: manifestFile, size: megabytes(entry.size), max: megabytes(limits.maxManifestBytes) },
    });
  }
  let stream;
  try {
    stream = await zip.open(manifestFile);
  } catch (error) {
    throw refusedZip(error);
  }
  const header: Record<string, unknown> = {};
  const memories: ArchiveMemory[] = [];
  let memoryIssue: string | undefined;
  const { topLevelKinds } = await parseJsonStream(stream, {
    name: manifestFile,
    paths: ["$.format", "$.version", "$.exported_at", "$.box", "$.members", "$.memories.*"],
    onValue(value, key, parentKey) {
      if (parentKey !== "memories") {
        header[String(key)] = value;
        return;
      }
      if (memoryIssue !== undefined) return;
      const parsed = ArchiveMemory.safeParse(value);
      if (parsed.success) memories.push(parsed.data);
      else memoryIssue = describeIssue(notAsDescribed, parsed.error.issues[0]!, ["memories", memories.length]);
    },
  });
  if (header.format !== "memory-box") {
    throw new ArchiveRefusedError({ id: "errorText.archive.notMemoryBoxFormat", values: { file: manifestFile } });
  }
  if (!readableArchiveVersions.includes(header.version as number)) {
    throw new ArchiveRefusedError({
      id: "errorText.archive.version",
      values: { version: JSON.stringify(header.version), latest: archiveVersion },
    });
  }
  if (memoryIssue !== undefined) throw new ArchiveRefusedError(memoryIssue);
  // Each memory was checked as it came; the rest is checked whole, with `memories` an (emptied)
  // array when it was one.
  const memoriesKind = topLevelKinds.get("memories");
  const parsed = ArchiveManifest.safeParse({
    ...header,
    memories: memoriesKind === TokenType.LEFT_BRACKET ? [] : memoriesKind === undefined ? undefined : null,
  });
  if (!parsed.success) throw new ArchiveRefusedError(describeIssue(notAsDescribed, parsed.error.issues[0]!, []));
  return { ...parsed.data, memories };
}

const notAsDescribed = `${manifestFile} is not as the format describes`;

function megabytes(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 10) / 10;
}
