import { buildApp } from "./app";
import { ConfigError, loadConfig } from "./config";
import { stopGracefully } from "./lib/graceful-stop";
import { mallocArenaAdvice, runningGlibcVersion } from "./lib/malloc-arenas";
import { createPrivateFiles, keepDataPrivate } from "./lib/private-files";
import { keepNoImageCache, restrictImageDecoders } from "./modules/photos";

/** The only module with start-up side effects: read the environment, build, listen. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Memory Box cannot start.\n${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  // The database, photos and outbox are the members' own: no other local user reads them.
  createPrivateFiles();
  keepDataPrivate(config);
  // Only the decoders of accepted formats stay loaded, process-wide: a file that slips past
  // format detection still cannot reach libvips' other parsers.
  restrictImageDecoders();
  keepNoImageCache();
  const app = await buildApp(config);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, "shutting down");
      stopGracefully(app).then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, "shutdown failed");
          process.exit(1);
        },
      );
    });
  }
  await app.listen({ host: config.host, port: config.port });
  app.log.info({ url: config.publicUrl, database: config.database.engine, dataDir: config.dataDir }, "Memory Box is ready");
  const advice = mallocArenaAdvice(process.env, runningGlibcVersion);
  if (advice) app.log.warn(advice);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Memory Box failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
