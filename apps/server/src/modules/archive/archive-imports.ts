import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ownedTempName } from "../../lib/temp-files";
import type { ArchiveImporter, ImportProgress, ImportSummary } from "./archive-importer";
import type { ArchiveLimits } from "./archive-source";
import { type ArchiveFormat, openArchive } from "./open-archive";

/**
 * Imports as the account area and the CLI start them: from an uploaded body or a file, in either
 * format, with the running import's progress for the screen that waits on it. A Day One journal is
 * its writer's: its entries are written by the member who imports it.
 */
export class ArchiveImports {
  private running: ImportProgress | null = null;

  constructor(
    private readonly deps: {
      importer: ArchiveImporter;
      limits: ArchiveLimits;
      /** Where an uploaded archive waits while it is imported; on the same disk as DATA_DIR. */
      tempDir: string;
    },
  ) {}

  /** The running import's progress, or null. */
  progress(): ImportProgress | null {
    return this.running;
  }

  isRunning(): boolean {
    return this.running !== null;
  }

  /** Receives an uploaded archive into a temporary file (removed afterwards, and after a crash), then imports it. */
  async fromUpload(body: Readable, format: ArchiveFormat, importedBy: string): Promise<ImportSummary> {
    this.running = { phase: "receiving", done: 0, total: 0, with_videos: false };
    await fsp.mkdir(this.deps.tempDir, { recursive: true });
    const file = path.join(this.deps.tempDir, ownedTempName(".zip"));
    try {
      let received = 0;
      body.on("data", (chunk: Buffer) => {
        received += chunk.length;
        this.running = { phase: "receiving", done: received, total: 0, with_videos: false };
      });
      await pipeline(body, fs.createWriteStream(file, { mode: 0o600 }));
      return await this.fromFile(file, format, importedBy);
    } finally {
      this.running = null;
      await fsp.rm(file, { force: true });
    }
  }

  async fromFile(
    file: string,
    format: ArchiveFormat,
    importedBy: string,
    onProgress?: (progress: ImportProgress) => void,
    signal?: AbortSignal,
  ): Promise<ImportSummary> {
    const source = await openArchive(format, file, this.deps.limits);
    try {
      return await this.deps.importer.import(source, {
        importedBy,
        ...(signal && { signal }),
        ...(format === "dayone" ? { authorOfUnattributed: importedBy } : {}),
        onProgress: (progress) => {
          this.running = progress;
          onProgress?.(progress);
        },
      });
    } finally {
      this.running = null;
      await source.close();
    }
  }
}
