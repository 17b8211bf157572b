import fsp from "node:fs/promises";
import path from "node:path";
import { blockingFileWriter } from "../lib/blocking-file-writer";
import { ArchiveExporter, ArchiveRepository } from "../modules/archive";
import { MemoriesRepository } from "../modules/memories";
import { createBlobStore } from "../modules/storage";
import { type Command, parseCommandArgs, UsageError } from "./command";
import type { ConfiguredCommandContext } from "./service-token.command";

const usage = [
  "node apps/server/dist/cli.js export memories.zip   write every memory, its photos' originals and browsable pages to one ZIP",
].join("\n");

/**
 * `export <file.zip>`: the whole collection as an archive (docs/formats/memory-box.md), while the
 * server may be running. Written next to the target under a temporary name and renamed at the
 * end, so a file of that name is always a whole archive.
 */
export const exportCommand = {
  usage,

  async run({ args, db, out, config }: ConfiguredCommandContext) {
    const { values, positionals } = parseCommandArgs(args, []);
    if (values.help) {
      out(usage);
      return;
    }
    const [target, ...rest] = positionals;
    if (target === undefined || rest.length > 0) throw new UsageError("export takes one argument: the ZIP file to write.");
    const file = path.resolve(target);
    const partial = `${file}.partial`;
    const blobStore = createBlobStore(config.storageUrl, config.dataDir);
    const started = Date.now();
    try {
      const exporter = new ArchiveExporter({
        archive: new ArchiveRepository(db, config.database.engine),
        memories: new MemoriesRepository(db, config.database.engine),
        blobStore,
        tempDir: path.join(config.dataDir, "uploads"),
        // This process serves nothing else: its reads and writes block rather than go through
        // libuv's pool (ADR 0083).
        blockingReads: true,
      });
      const summary = await exporter.write(blockingFileWriter(partial), { outputIsFinal: true });
      await fsp.rename(partial, file);
      const megabytes = (summary.photoBytes / 1024 / 1024).toFixed(1);
      out(
        `Exported ${summary.memories} memories, ${summary.photos} photos and ${summary.videos} videos (${megabytes} MB of originals) to ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s.`,
      );
    } catch (error) {
      await fsp.rm(partial, { force: true });
      throw error;
    } finally {
      await blobStore.close();
    }
  },
} satisfies Command;
