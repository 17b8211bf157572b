import path from "node:path";
import { z } from "zod";
import packageJson from "../../../package.json" with { type: "json" };
import { parseStorageUrl } from "./modules/storage";

/**
 * The server's whole configuration, parsed from the environment in one place.
 * Every variable is documented in the README's configuration table; keep the two in step.
 */
export interface Config {
  host: string;
  port: number;
  /** Origin used in links the server writes (e-mails, redirects). */
  publicUrl: string;
  dataDir: string;
  database: DatabaseConfig;
  /** Unset: files under `{dataDir}/storage`. */
  storageUrl: string | undefined;
  smtpUrl: string | undefined;
  logLevel: LogLevel;
  /** The built web app; served at `/` when it exists. */
  webDir: string;
  version: string;
}

export type DatabaseConfig = { engine: "sqlite"; file: string } | { engine: "postgres"; url: string };

const logLevels = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof logLevels)[number];

/** Thrown when the environment is invalid; its message lists every bad variable at once. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const url = (protocols: string[], hint: string) =>
  optionalText.refine((value) => value === undefined || matchesProtocol(value, protocols), {
    message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(" or ")} (${hint})`,
  });

const environmentSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HOST: optionalText.default("127.0.0.1"),
  DATA_DIR: optionalText.default("./data"),
  DATABASE_URL: url(["postgres:", "postgresql:", "sqlite:"], "postgres://user:pass@host/db or sqlite:path/to/file.sqlite"),
  STORAGE_URL: optionalText.superRefine((value, context) => {
    if (value === undefined) return;
    try {
      parseStorageUrl(value);
    } catch (error) {
      context.addIssue({ code: "custom", message: `${error instanceof Error ? error.message : "is not valid"} (s3://bucket?endpoint=…&region=… or file:///absolute/folder)` });
    }
  }),
  PUBLIC_URL: url(["http:", "https:"], "the origin members open, such as https://memories.example.org"),
  SMTP_URL: url(["smtp:", "smtps:"], "smtp://user:pass@host:port"),
  LOG_LEVEL: z.enum(logLevels).default("info"),
});

export function loadConfig(env: NodeJS.ProcessEnv = process.env, defaults: { webDir: string; version: string } = defaultPaths()): Config {
  const parsed = environmentSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const vars = parsed.data;
  const dataDir = path.resolve(vars.DATA_DIR);
  return {
    host: vars.HOST,
    port: vars.PORT,
    publicUrl: (vars.PUBLIC_URL ?? `http://localhost:${vars.PORT}`).replace(/\/+$/, ""),
    dataDir,
    database: databaseConfig(vars.DATABASE_URL, dataDir),
    storageUrl: vars.STORAGE_URL,
    smtpUrl: vars.SMTP_URL,
    logLevel: vars.LOG_LEVEL,
    webDir: defaults.webDir,
    version: defaults.version,
  };
}

function databaseConfig(databaseUrl: string | undefined, dataDir: string): DatabaseConfig {
  if (databaseUrl === undefined) return { engine: "sqlite", file: path.join(dataDir, "memory-box.sqlite") };
  if (databaseUrl.startsWith("sqlite:")) {
    return { engine: "sqlite", file: path.resolve(databaseUrl.slice("sqlite:".length).replace(/^\/\/(?=\/)/, "")) };
  }
  return { engine: "postgres", url: databaseUrl };
}

function matchesProtocol(value: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Source and bundle both live one folder below apps/server, so one relative path serves both. */
function defaultPaths() {
  return {
    webDir: path.resolve(import.meta.dirname, "../../web/dist"),
    version: packageJson.version,
  };
}
