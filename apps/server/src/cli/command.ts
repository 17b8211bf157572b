import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Kysely } from "kysely";
import type { Config } from "../config";
import type { Database } from "../db/schema";

/** What an operator command gets: its own arguments, an open and migrated database, and a printer. */
export interface CommandContext {
  args: string[];
  db: Kysely<Database>;
  out: (line: string) => void;
}

export interface Command {
  /** One line per form, shown by `--help` and on a usage error. */
  usage: string;
  run(context: CommandContext): Promise<void>;
}

/** A command that must find the database as it is (restore): it is neither opened nor migrated for it. */
export interface DatabaseFreeCommand {
  usage: string;
  opensDatabase: false;
  run(context: { args: string[]; out: (line: string) => void; config: Config }): Promise<void>;
}

const usageErrorBrand = Symbol.for("memory-box.UsageError");

/** The operator typed something the command does not take; the CLI prints it and exits 1. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }

  /** Also true for a UsageError of a command's own bundle (see AppError's). */
  static override [Symbol.hasInstance](error: unknown): boolean {
    return typeof error === "object" && error !== null && usageErrorBrand in error;
  }

  readonly [usageErrorBrand] = true;
}

/**
 * A command's flags (each a string, plus `--help`/`-h`) and positionals, strictly: an unknown flag
 * or a missing value is a UsageError, which the CLI prints with the usage.
 */
export function parseCommandArgs<Names extends string>(args: string[], flags: readonly Names[]) {
  const options = Object.fromEntries(flags.map((name) => [name, { type: "string" as const }])) as Record<
    Names,
    { type: "string" }
  >;
  try {
    return parseArgs({
      args,
      options: { ...options, help: { type: "boolean", short: "h" } } satisfies ParseArgsConfig["options"],
      allowPositionals: true,
      strict: true,
    }) as { values: Partial<Record<Names, string>> & { help?: boolean }; positionals: string[] };
  } catch (error) {
    // node:util reports unknown flags and missing values as TypeErrors; they are the operator's to fix.
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
