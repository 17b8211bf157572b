import path from "node:path";
import { PhotoFilesReconciler, PhotosRepository } from "../modules/photos";
import { createBlobStore } from "../modules/storage";
import { removeLeftoverTempFiles } from "../lib/temp-files";
import { type Command, parseCommandArgs, UsageError } from "./command";
import type { ConfiguredCommandContext } from "./service-token.command";

const maxHours = 24 * 365;

const usage = [
  "node apps/server/dist/cli.js reconcile                  remove leftovers of crashes; photo files no photo names once older than PHOTO_ORPHAN_GRACE_HOURS",
  "node apps/server/dist/cli.js reconcile --grace-hours N  the same with another grace period (0: at once; only while no upload is in flight)",
].join("\n");

/**
 * `reconcile [--grace-hours N]`: what the server does at start-up and daily (ADR 0016), on demand:
 * removes temporary files of processes that are gone, photo files no row names once past the grace
 * period, and lists photos whose files are missing.
 */
export const reconcileCommand = {
  usage,

  async run({ args, db, out, config }: ConfiguredCommandContext) {
    const { values, positionals } = parseCommandArgs(args, ["grace-hours"]);
    if (values.help) {
      out(usage);
      return;
    }
    if (positionals.length > 0) throw new UsageError("reconcile takes no arguments besides --grace-hours.");
    const graceMs =
      values["grace-hours"] === undefined ? config.photos.orphanGraceMs : parseHours(values["grace-hours"]) * 3600_000;
    const leftovers = await removeLeftoverTempFiles(path.join(config.dataDir, "uploads"));
    const blobStore = createBlobStore(config.storageUrl, config.dataDir);
    try {
      const reconciler = new PhotoFilesReconciler({
        photos: new PhotosRepository(db),
        blobStore,
        log: { warn: (details) => out(`missing: ${JSON.stringify(details)}`) },
      });
      const result = await reconciler.run(graceMs);
      out(`Removed ${leftovers.files} leftover upload file(s) (${leftovers.bytes} bytes).`);
      out(
        `Checked ${result.filesChecked} photo file(s); removed ${result.orphansRemoved} that no photo names (${result.orphanBytes} bytes).`,
      );
      out(`${result.missingCount} photo(s) have missing files.`);
    } finally {
      await blobStore.close();
    }
  },
} satisfies Command;

function parseHours(raw: string): number {
  const hours = /^\d{1,5}$/.test(raw) ? Number(raw) : NaN;
  if (!(hours >= 0 && hours <= maxHours)) throw new UsageError(`--grace-hours must be a whole number from 0 to ${maxHours}.`);
  return hours;
}
