import type { Kysely } from "kysely";
import type { Config } from "../src/config";
import { openDatabase } from "../src/db/database";
import type { Database } from "../src/db/schema";
import type { TestApp } from "./test-app";

/** An operator command that reads the configuration too (`export`, `import`). */
interface ConfiguredCommand {
  run(context: { args: string[]; db: Kysely<Database>; out: (line: string) => void; config: Config }): Promise<void>;
}

/** Runs an operator command (`npm run export`, `import`) against a test app's database and storage, its output dropped. */
export async function runCommand(app: TestApp, command: ConfiguredCommand, ...args: string[]): Promise<void> {
  const database = openDatabase(app.config.database);
  try {
    await command.run({ args, db: database.db, out: () => {}, config: app.config });
  } finally {
    await database.destroy();
  }
}
