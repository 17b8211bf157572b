import { defaultArchiveLimits, type ArchiveLimits, type ArchiveSource } from "./archive-source";
import { openDayOneArchive } from "./dayone-source";
import { openMemoryBoxArchive } from "./memory-box-source";

export type ArchiveFormat = "memory-box" | "dayone";

/** The archive in `file`, read as `format`; refused (ArchiveRefusedError) when it is not one, or not a safe one. */
export function openArchive(format: ArchiveFormat, file: string, limits: ArchiveLimits): Promise<ArchiveSource> {
  return format === "dayone" ? openDayOneArchive(file, limits) : openMemoryBoxArchive(file, limits);
}

/** The limits an import holds archives to, with photos and videos held to this instance's upload limits. */
export function archiveLimits(maxPhotoBytes: number, maxVideoBytes: number): ArchiveLimits {
  return { ...defaultArchiveLimits, maxPhotoBytes, maxVideoBytes };
}
