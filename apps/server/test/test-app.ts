import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { type BuildOptions, buildApp } from "../src/app";
import { type Config, type DatabaseConfig, loadConfig } from "../src/config";
import type { Engine } from "../src/db/database";
import { createTestDatabase } from "./test-database";

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  /** Closes the app and removes its database and data folder. */
  close(): Promise<void>;
}

/**
 * The real server on a fresh, migrated database of the given engine and a temporary DATA_DIR.
 * `env` adds environment variables as an operator would set them; `now` is the server's clock
 * (auth service, photo URLs), for tests that travel in time.
 */
export async function createTestApp(
  engine: Engine,
  options: Pick<
    BuildOptions,
    | "logStream"
    | "now"
    | "onQuery"
    | "eventsHeartbeatMs"
    | "maxKeptSearchMatches"
    | "languages"
    | "countryAt"
    | "notifications"
    | "mailOutbox"
  > & {
    /**
     * Hash passwords at the product's cost (OWASP's minimum, 20 ms a hash here) rather than the
     * suites' few KiB: for the tests of the hashing itself. The suites hash some 1,500 times a run.
     */
    productPasswordHashing?: boolean;
    env?: Record<string, string>;
    webDir?: string;
    /** Another test app's database, to run a second server on it (dropped by its owner, not here). */
    sharedDatabase?: DatabaseConfig;
  } = {},
): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-data-"));
  const database = options.sharedDatabase
    ? { config: options.sharedDatabase, drop: async () => {} }
    : await createTestDatabase(engine, { migrated: true });
  const config: Config = {
    ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: options.logStream ? "info" : "silent", ...options.env }),
    database: database.config,
    ...(options.webDir ? { webDir: options.webDir } : { webDir: path.join(dataDir, "no-web-app") }),
  };
  const { env: _env, webDir: _webDir, sharedDatabase: _shared, productPasswordHashing, ...buildOptions } = options;
  const app = await buildApp(config, {
    ...buildOptions,
    ...(productPasswordHashing ? {} : { passwordHashCost: { memoryCost: 256, timeCost: 1 } }),
  });
  return {
    app,
    config,
    close: async () => {
      await app.close();
      await database.drop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
