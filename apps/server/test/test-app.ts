import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { DestinationStream } from "pino";
import { buildApp } from "../src/app";
import { type Config, loadConfig } from "../src/config";
import type { Engine } from "../src/db/database";
import { createTestDatabase } from "./test-database";

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  /** Closes the app and removes its database and data folder. */
  close(): Promise<void>;
}

/**
 * The real server on a fresh database of the given engine and a temporary DATA_DIR.
 * `env` adds environment variables as an operator would set them.
 */
export async function createTestApp(
  engine: Engine,
  options: { env?: Record<string, string>; webDir?: string; logStream?: DestinationStream } = {},
): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-data-"));
  const database = await createTestDatabase(engine);
  const config: Config = {
    ...loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: options.logStream ? "info" : "silent", ...options.env }),
    database: database.config,
    ...(options.webDir ? { webDir: options.webDir } : { webDir: path.join(dataDir, "no-web-app") }),
  };
  const app = await buildApp(config, options.logStream ? { logStream: options.logStream } : {});
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
