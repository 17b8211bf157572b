import path from "node:path";
import { BackupService } from "../modules/backup";
import { createBlobStore } from "../modules/storage";
import { type Command, parseCommandArgs, UsageError } from "./command";
import type { ConfiguredCommandContext } from "./service-token.command";

const usage = [
  "node apps/server/dist/cli.js backup              take a snapshot (database and photos) into BACKUP_DIR, while the server runs",
  "node apps/server/dist/cli.js backup --to <dir>   into another folder",
].join("\n");

/** `backup [--to dir]`: one snapshot now, as the server's schedule takes them (ADR 0029). */
export const backupCommand = {
  usage,

  async run({ args, out, config }: ConfiguredCommandContext) {
    const { values, positionals } = parseCommandArgs(args, ["to"]);
    if (values.help) {
      out(usage);
      return;
    }
    if (positionals.length > 0) throw new UsageError("backup takes no argument; name another folder with --to.");
    const backupDir = values.to === undefined ? config.backups.dir : path.resolve(values.to);
    if (backupDir === undefined) throw new UsageError("Set BACKUP_DIR, or name the folder with --to.");
    const blobStore = createBlobStore(config.storageUrl, config.dataDir);
    try {
      const started = Date.now();
      const summary = await new BackupService({
        database: config.database,
        blobStore,
        backupDir,
        keep: config.backups.keep,
      }).run();
      out(
        `Backed up to ${summary.snapshot} in ${((Date.now() - started) / 1000).toFixed(1)} s: the database and ${summary.objects} stored files ` +
          `(${(summary.bytes / 1024 / 1024).toFixed(1)} MB; ${summary.linked} unchanged since the previous backup, linked rather than copied).`,
      );
    } finally {
      await blobStore.close();
    }
  },
} satisfies Command;
