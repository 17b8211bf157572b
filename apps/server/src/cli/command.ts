import type { Kysely } from "kysely";
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

/** The operator typed something the command does not take; the CLI prints it and exits 1. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
