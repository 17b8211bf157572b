import { ConfigError, loadConfig } from "../config";
import { openDatabase } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import { AppError } from "../errors";
import { type Command, type DatabaseFreeCommand, UsageError } from "./command";
import type { ConfiguredCommandContext } from "./service-token.command";

/**
 * Every operator command by name; `node dist/cli.js <name> ...` runs one. A command's code is
 * loaded only when it runs: an export does not wait for the image library or the mailer to load.
 */
export const commands: Record<string, () => Promise<Command | DatabaseFreeCommand>> = {
  invite: async () => (await import("./invite.command")).inviteCommand,
  "service-token": async () => (await import("./service-token.command")).serviceTokenCommand,
  reconcile: async () => (await import("./reconcile.command")).reconcileCommand,
  mfa: async () => (await import("./mfa.command")).mfaCommand,
  export: async () => (await import("./export.command")).exportCommand,
  import: async () => (await import("./import.command")).importCommand,
  backup: async () => (await import("./backup.command")).backupCommand,
  restore: async () => (await import("./restore.command")).restoreCommand,
};

export interface CliIo {
  env: NodeJS.ProcessEnv;
  out: (line: string) => void;
  err: (line: string) => void;
}

/**
 * Runs one command against the configured database and returns the exit code. Mistakes the
 * operator can fix (bad input, bad environment) print a message and return 1; anything else
 * is a bug and is thrown.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  const load = name === undefined || !Object.hasOwn(commands, name) ? undefined : commands[name];
  if (load === undefined) {
    io.err(name === undefined ? "Name a command." : `Unknown command "${name}".`);
    io.err(`Commands: ${Object.keys(commands).join(", ")}`);
    return 1;
  }

  const command = await load();
  let config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }

  if ("opensDatabase" in command) {
    try {
      await command.run({ args, out: io.out, config });
      return 0;
    } catch (error) {
      return reportOrThrow(error, command, io);
    }
  }

  const database = openDatabase(config.database);
  try {
    // A fresh DATA_DIR works: invitations usually come before the server's first start.
    await migrateToLatest(database.db);
    const context: ConfiguredCommandContext = { args, db: database.db, out: io.out, config };
    await command.run(context);
    return 0;
  } catch (error) {
    return reportOrThrow(error, command, io);
  } finally {
    await database.destroy();
  }
}

/** Mistakes the operator can fix print their message (and the usage) and exit 1; anything else is a bug. */
function reportOrThrow(error: unknown, command: Command | DatabaseFreeCommand, io: CliIo): number {
  if (error instanceof UsageError) {
    io.err(error.message);
    io.err(`Usage:\n${command.usage.replace(/^/gm, "  ")}`);
    return 1;
  }
  if (error instanceof AppError) {
    io.err(error.message);
    return 1;
  }
  throw error;
}
