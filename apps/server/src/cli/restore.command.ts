import path from "node:path";
import { restoreSnapshot } from "../modules/backup";
import { createBlobStore } from "../modules/storage";
import { type DatabaseFreeCommand, parseCommandArgs, UsageError } from "./command";

const usage = "node apps/server/dist/cli.js restore <backup folder>   rebuild this (empty) instance from a snapshot of `backup`";

/**
 * `restore <snapshot>`: the database and every stored file of a snapshot into the configured
 * DATA_DIR / DATABASE_URL / STORAGE_URL, which must hold nothing yet (ADR 0029). The database is
 * not opened for it beforehand: a restore must find it empty, not migrated.
 */
export const restoreCommand = {
  usage,
  opensDatabase: false,

  async run({ args, out, config }) {
    const { values, positionals } = parseCommandArgs(args, []);
    if (values.help) {
      out(usage);
      return;
    }
    const [snapshot, ...rest] = positionals;
    if (snapshot === undefined || rest.length > 0) throw new UsageError("restore takes one argument: the backup folder.");
    const blobStore = createBlobStore(config.storageUrl, config.dataDir);
    try {
      const { objects, mediaJobs } = await restoreSnapshot(path.resolve(snapshot), { database: config.database, blobStore });
      out(
        `Restored the database and ${objects} stored files from ${path.resolve(snapshot)}. Start the server as usual` +
          (mediaJobs > 0 ? `: it finishes preparing ${mediaJobs} videos the backup caught being prepared.` : "."),
      );
    } finally {
      await blobStore.close();
    }
  },
} satisfies DatabaseFreeCommand;
