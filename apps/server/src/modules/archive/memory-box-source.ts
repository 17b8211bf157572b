import { buffer } from "node:stream/consumers";
import { ZipReader } from "../../lib/zip-reader";
import { ArchiveManifest, archiveVersion } from "./archive-format";
import { ArchiveRefusedError, type ArchiveLimits, type ArchiveSource, refusedZip } from "./archive-source";

export const manifestFile = "memory-box.json";

/** Opens a Memory Box archive (docs/formats/memory-box.md) for import, refusing what is not one, or not one this version reads. */
export async function openMemoryBoxArchive(file: string, limits: ArchiveLimits): Promise<ArchiveSource> {
  const zip = await openZip(file, limits);
  try {
    const manifest = parseManifest(await readJson(zip, manifestFile, limits));
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
export async function openZip(file: string, limits: ArchiveLimits): Promise<ZipReader> {
  try {
    return await ZipReader.open(file, { maxEntries: limits.maxEntries });
  } catch (error) {
    throw refusedZip(error);
  }
}

/** A JSON file of the archive, read whole after its stated size was checked against the limit. */
export async function readJson(zip: ZipReader, name: string, limits: ArchiveLimits, missing?: string): Promise<unknown> {
  const entry = zip.entry(name);
  if (!entry) throw new ArchiveRefusedError(missing ?? `This is not a Memory Box archive: it has no ${name}.`);
  if (entry.size > limits.maxManifestBytes) {
    throw new ArchiveRefusedError(
      `${name} is ${megabytes(entry.size)} MB, more than the ${megabytes(limits.maxManifestBytes)} MB an import reads.`,
    );
  }
  let bytes: Buffer;
  try {
    bytes = await buffer(await zip.open(name));
  } catch (error) {
    throw refusedZip(error);
  }
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new ArchiveRefusedError(`${name} is not valid JSON: the archive is damaged or was not written by Memory Box.`);
  }
}

function parseManifest(json: unknown): ArchiveManifest {
  const header = json as { format?: unknown; version?: unknown } | null;
  if (typeof header !== "object" || header === null || header.format !== "memory-box") {
    throw new ArchiveRefusedError(`This is not a Memory Box archive: ${manifestFile} does not say "format": "memory-box".`);
  }
  if (header.version !== 1 && header.version !== archiveVersion) {
    throw new ArchiveRefusedError(
      `This archive is in version ${JSON.stringify(header.version)} of the format; this Memory Box reads versions 1 to ${archiveVersion}. Update Memory Box, then import it.`,
    );
  }
  const parsed = ArchiveManifest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ArchiveRefusedError(
      `${manifestFile} is not as the format describes: ${issue.path.join(".") || "the file"} ${issue.message}.`,
    );
  }
  return parsed.data;
}

function megabytes(bytes: number): number {
  return Math.round((bytes / (1024 * 1024)) * 10) / 10;
}
