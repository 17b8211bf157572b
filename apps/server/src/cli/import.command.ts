import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import {
  type ArchiveFormat,
  ArchiveImporter,
  ArchiveImports,
  ArchiveRefusedError,
  ArchiveRepository,
  archiveLimits,
} from "../modules/archive";
import { MemoriesRepository } from "../modules/memories";
import { PhotosRepository, PhotosService } from "../modules/photos";
import { resolveVideoTools, VideosService } from "../modules/videos";
import { GeoNamesPlaceNames } from "../modules/places";
import { createBlobStore } from "../modules/storage";
import { AppError } from "../errors";
import { type Command, parseCommandArgs, UsageError } from "./command";
import type { ConfiguredCommandContext } from "./service-token.command";

const usage = [
  "node apps/server/dist/cli.js import memories.zip                 bring in a Memory Box archive (all of it or nothing; memories already here are left as they are)",
  "node apps/server/dist/cli.js import --from dayone Export.zip     bring in a Day One JSON export",
  "  --as <email>   the member who imports (and writes a Day One journal's entries); the first owner when not given",
].join("\n");

const formats: readonly ArchiveFormat[] = ["memory-box", "dayone"];

/**
 * `import [--from memory-box|dayone] [--as email] <file.zip>`: an archive into this instance, on
 * either engine and storage, while the server may be running. Refusals (a damaged, foreign or
 * hostile archive) print their reason and change nothing.
 */
export const importCommand = {
  usage,

  async run({ args, db, out, config }: ConfiguredCommandContext) {
    const { values, positionals } = parseCommandArgs(args, ["from", "as"]);
    if (values.help) {
      out(usage);
      return;
    }
    const [source, ...rest] = positionals;
    if (source === undefined || rest.length > 0) throw new UsageError("import takes one argument: the ZIP file to read.");
    const format = values.from ?? "memory-box";
    if (!(formats as readonly string[]).includes(format)) throw new UsageError(`--from takes ${formats.join(" or ")}.`);

    const file = path.resolve(source);
    const notAFile = await describeMissingFile(file);
    if (notAFile) throw new AppError("validation_failed", { message: `Nothing was imported. ${notAFile}` });

    const archive = new ArchiveRepository(db, config.database.engine);
    const importer = await archive.importerMember(values.as);
    if (!importer) {
      throw new AppError("validation_failed", {
        message: values.as
          ? `${values.as} is not a member of this Memory Box.`
          : "This Memory Box has no owner yet: invite one, or name a member with --as.",
      });
    }
    const blobStore = createBlobStore(config.storageUrl, config.dataDir);
    const tempDir = path.join(config.dataDir, "uploads");
    const limits = archiveLimits(config.photos.maxUploadBytes, config.videos.maxBytes);
    let cleanUp = () => {};
    try {
      const photos = new PhotosService({
        photos: new PhotosRepository(db),
        blobStore,
        // This command signs no photo URL; the service needs a key all the same.
        urlSecret: randomBytes(32),
        uploadDir: tempDir,
        maxPixels: config.photos.maxMegapixels * 1_000_000,
        maxUploadBytes: config.photos.maxUploadBytes,
        log: { warn: (_object, message) => out(`Warning: ${message}`) },
      });
      // Videos get their posters here; their web copies are made by the server's media jobs (ADR
      // 0055), which a running server takes up at its next look at the queue, or at its next start.
      const videos = new VideosService({
        db,
        photos,
        blobStore,
        tools: () => resolveVideoTools({ ffmpegPath: config.videos.ffmpegPath, ffprobePath: config.videos.ffprobePath }),
        workDir: tempDir,
        maxBytes: config.videos.maxBytes,
        maxSeconds: config.videos.maxSeconds,
        maxAttempts: 3,
        wakeJobs: () => {},
        publishProgress: () => {},
        publishMemoryUpdated: () => {},
        log: { warn: (_object, message) => out(`Warning: ${message}`) },
      });
      const placeNames = new GeoNamesPlaceNames();
      const imports = new ArchiveImports({
        importer: new ArchiveImporter({
          archive,
          memories: new MemoriesRepository(db, config.database.engine),
          photos: new PhotosRepository(db),
          photoFiles: photos,
          videoFiles: videos,
          limits,
          tempDir,
          // A running server shows the new memories at its lists' next read; its open screens are not told (no shared event bus here).
          publish: () => {},
          countryAt: (point) => placeNames.countryAt(point),
        }),
        limits,
        tempDir,
      });
      // Ctrl-C (or SIGTERM) stops the import cleanly: the photos it stored are removed, no row is
      // written. A second one ends the process at once.
      const stop = new AbortController();
      const stopping = () => {
        out("Stopping: removing what this import stored…");
        stop.abort(new ImportStoppedError());
      };
      process.once("SIGINT", stopping);
      process.once("SIGTERM", stopping);
      cleanUp = () => {
        process.off("SIGINT", stopping);
        process.off("SIGTERM", stopping);
      };
      const started = Date.now();
      let lastReport = started;
      let lastPhase: string | undefined;
      // Each phase as it begins (a large archive's take minutes), then its count every 2 s.
      const summary = await imports.fromFile(
        file,
        format as ArchiveFormat,
        importer.id,
        ({ phase, done, total }) => {
          if (phase !== lastPhase) {
            lastPhase = phase;
            lastReport = Date.now();
            if (phase === "checking") out(`Checking ${total} memories`);
            else if (phase === "photos") out(`Photos and videos: ${done} of ${total}`);
            else if (phase === "saving") out(`Saving ${total} memories`);
            return;
          }
          if ((phase !== "photos" && phase !== "saving") || Date.now() - lastReport < 2_000) return;
          lastReport = Date.now();
          out(phase === "photos" ? `Photos and videos: ${done} of ${total}` : `Saved ${done} of ${total} memories`);
        },
        stop.signal,
      );
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (summary.box === "set") out("The box's settings (its name, cover or together-since day) came with it.");
      if (summary.box === "kept")
        out("This Memory Box keeps its own name, cover and together-since day: the archive's were left out.");
      out(
        `Imported ${summary.memories} memories, ${summary.photos} photos and ${summary.videos} videos in ${seconds} s as ${importer.email}` +
          (summary.alreadyHere > 0 ? `; ${summary.alreadyHere} memories were already here and were left as they are.` : "."),
      );
    } catch (error) {
      if (error instanceof ArchiveRefusedError)
        throw new AppError("validation_failed", { message: `Nothing was imported. ${error.message}` });
      if (error instanceof ImportStoppedError)
        throw new AppError("validation_failed", { message: "Nothing was imported: the import was stopped." });
      throw error;
    } finally {
      cleanUp();
      await blobStore.close();
    }
  },
} satisfies Command;

/** The operator stopped the import. */
class ImportStoppedError extends Error {
  constructor() {
    super("The import was stopped.");
    this.name = "ImportStoppedError";
  }
}

/** Why `file` cannot be an archive before it is opened (it is not there, or is a folder); null when it is a file. */
async function describeMissingFile(file: string): Promise<string | null> {
  const stat = await fs.stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
    throw error;
  });
  if (stat === null) return `There is no file at ${file}.`;
  return stat.isFile() ? null : `${file} is a folder, not a ZIP file.`;
}
