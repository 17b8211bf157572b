import type { exportCommand } from "../src/cli/export.command";
import type { importCommand } from "../src/cli/import.command";
import { openDatabase } from "../src/db/database";
import type { TestApp } from "./test-app";

/** An operator's command (`npm run export`, `npm run import`) run on a test app's database and config: the lines it printed. */
export async function runCommand(
  app: TestApp,
  command: typeof importCommand | typeof exportCommand,
  ...args: string[]
): Promise<string[]> {
  const lines: string[] = [];
  const database = openDatabase(app.config.database);
  try {
    await command.run({ args, db: database.db, out: (line) => lines.push(line), config: app.config });
  } finally {
    await database.destroy();
  }
  return lines;
}
