import fastifyHelmet from "@fastify/helmet";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyInstance } from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { DestinationStream } from "pino";
import type { Config } from "./config";
import { openDatabase } from "./db/database";
import { migrateToLatest } from "./db/migrate";
import { healthRoutes } from "./modules/health/health.routes";
import { createBlobStore } from "./modules/storage";
import { registerErrorHandler } from "./plugins/error-handler";
import { loggerOptions, registerRequestLogging } from "./plugins/request-logging";
import { registerWebApp } from "./plugins/web-app";

export interface BuildOptions {
  /** Where log lines go; standard output when absent. */
  logStream?: DestinationStream;
}

/**
 * Builds the whole server without listening: opens the database (migrating it to the latest
 * schema) and the photo storage, and registers every route. Tests drive the result with
 * `inject()`; main.ts listens on it. Closing the app closes the database.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({ ...loggerOptions(config.logLevel, options.logStream), trustProxy: false });
  const database = openDatabase(config.database);
  app.addHook("onClose", () => database.destroy());

  try {
    const applied = await migrateToLatest(database.db);
    if (applied.length > 0) app.log.info({ migrations: applied }, "database migrated");
  } catch (error) {
    await database.destroy();
    throw error;
  }
  const blobStore = createBlobStore(config.storageUrl, config.dataDir);
  app.addHook("onClose", () => blobStore.close());

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerRequestLogging(app);
  registerErrorHandler(app);

  await app.register(fastifyHelmet, { contentSecurityPolicy: { directives: contentSecurityPolicy } });
  await app.register(fastifySwagger, {
    openapi: { info: { title: "Memory Box API", version: config.version }, servers: [] },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs", staticCSP: true });
  app.get("/api/openapi.json", { schema: { hide: true } }, () => app.swagger());

  await app.register(healthRoutes, { db: database.db, blobStore, version: config.version });

  await registerWebApp(app, config.webDir);
  return app;
}

/** The web app loads only its own scripts; Radix positions popovers with inline styles. */
const contentSecurityPolicy = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", "data:", "blob:"],
  fontSrc: ["'self'", "data:"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // Members may open the app over plain HTTP on their home network; upgrading would break it.
  upgradeInsecureRequests: null,
};
