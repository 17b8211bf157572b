import fastifyRateLimit from "@fastify/rate-limit";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import { randomBytes } from "node:crypto";
import path from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { type GeoPoint, mediaProgressEventType, type MemoryEvent } from "@memory-box/contract";
import type { DestinationStream } from "pino";
import type { Config } from "./config";
import { AppError } from "./errors";
import { inOwnSqliteTransaction, openDatabase, serverSqliteLockWaitMs } from "./db/database";
import { registerRequestLanguages } from "./lib/languages";
import { databaseRateLimitStore } from "./plugins/rate-limit-store";
import { readTicket } from "./lib/session-ticket";
import { migrateToLatest } from "./db/migrate";
import {
  adminRoutes,
  createAuthModule,
  authRoutes,
  loadFactorSecretsKey,
  samlRoutes,
  type PasswordHashCost,
} from "./modules/auth";
import { BackupScheduler, BackupService } from "./modules/backup";
import {
  archiveLimits,
  ArchiveExporter,
  ArchiveImporter,
  ArchiveImports,
  ArchiveRepository,
  archiveRoutes,
  exportTicketPurpose,
} from "./modules/archive";
import { AuditLogRepository } from "./modules/audit";
import { healthRoutes } from "./modules/health";
import {
  InvitationsRepository,
  InvitationsService,
  MembersRepository,
  membersRoutes,
  MembersService,
  rpcRoutes,
} from "./modules/invitations";
import {
  createMailer,
  MailOutbox,
  type MailOutboxOptions,
  MailOutboxRepository,
  MailSeal,
  templatedMailer,
} from "./modules/mail";
import {
  bearerOrTicketAuthenticator,
  MemberCheck,
  memberAuthenticator,
  memberOf,
  serviceRoleAuthenticator,
} from "./modules/member-door";
import { DevicesService, devicesRoutes } from "./modules/devices";
import { BoxRepository, BoxService, boxRoutes } from "./modules/box";
import { RegisteredAppsService, registeredAppsRoutes } from "./modules/registered-apps";
import { FrameCheck, frameAuthenticator, frameRoutes, FramesRepository, framesRoutes, FramesService } from "./modules/frames";
import { FirstRunGuideRepository, FirstRunGuideService, firstRunGuideRoutes } from "./modules/first-run-guide";
import { EmailDigestRepository, emailDigestRoutes, EmailDigestScheduler, EmailDigestService } from "./modules/email-digest";
import { singleSignOnRoutes } from "./modules/single-sign-on";
import {
  accessSignalSetting,
  type EventBus,
  InProcessEventBus,
  PostgresEventBus,
  eventsRoutes,
  watchAccessSignal,
} from "./modules/events";
import { InstanceSettingsRepository } from "./modules/instance";
import {
  NotificationRunner,
  type NotificationRunnerOptions,
  NotificationsRepository,
  notificationsRoutes,
  NotificationsService,
  onThisDayCounter,
  PushSender,
  resolveVapidKeys,
} from "./modules/notifications";
import { MemoriesRepository, memoriesRoutes, MemoriesService } from "./modules/memories";
import { GeoNamesPlaceNames, placeLookupRoutes, PlacesRepository, placesRoutes, PlacesService } from "./modules/places";
import { type AddedResponse, CommentsRepository, commentsRoutes, CommentsService } from "./modules/comments";
import { IdempotencyRepository, IdempotencyService, idempotentCreates } from "./modules/idempotency";
import {
  type FileReconciliation,
  PhotoFilesReconciler,
  photoAccessRoutes,
  photoLocationsJobKind,
  photoObjectRoutes,
  photoReadRoutes,
  photoUploadRoutes,
  PhotosRepository,
  photoUrl,
  PhotosService,
  readPhotoAccessCookie,
  renewPhotoAccessWithMemberResponses,
} from "./modules/photos";
import { resumableUploadsRoutes, ResumableUploadsService } from "./modules/resumable-uploads";
import { createBlobStore, BucketsRepository, BucketsService, storageRoutes } from "./modules/storage";
import { MediaJobRunner, MediaJobsRepository } from "./modules/media-jobs";
import { MediaIntake, resolveVideoTools, type VideoTools, VideosService, videosRoutes, webCopyJobKind } from "./modules/videos";
import { answerFrameworkError, registerErrorHandler, rejectNulCharacters } from "./plugins/error-handler";
import { loggerOptions, registerRequestLogging } from "./plugins/request-logging";
import { registerSecurityHeaders } from "./plugins/security-headers";
import { registerShareTarget } from "./plugins/share-target";
import { registerWebApp } from "./plugins/web-app";

export interface BuildOptions {
  /** Where log lines go; standard output when absent. */
  logStream?: DestinationStream;
  /** The clock of the auth service and of photo URLs, for tests that travel in time. */
  now?: () => Date;
  /** Called with every database query's SQL, for tests that count them. */
  onQuery?: (sql: string) => void;
  /** Interval of the live stream's heartbeat and session re-check (default 25 s). */
  eventsHeartbeatMs?: number;
  /** Searches matching more than this are not kept in the listing cache (default 2,000). */
  maxKeptSearchMatches?: number;
  /** Tests: the country a place's point lies in, instead of the place names' answer. */
  countryAt?: (point: GeoPoint) => Promise<string | null>;
  /**
   * The languages members may choose and requests may ask for (default `supportedLocales`): tests
   * offer one the server's catalogue has before the product offers it.
   */
  languages?: readonly string[];
  /** argon2id's cost for passwords when not the OWASP minimum: the test suites hash cheaply (`createTestApp`). */
  passwordHashCost?: PasswordHashCost;
  /** Tests: the push outbox's runner (poll, backoff) and the grouping window, shorter than the product's. */
  notifications?: NotificationRunnerOptions & { groupingWindowMs?: number };
  /** Tests: the mail outbox's worker (poll, backoff, clock), instead of the product's. */
  mailOutbox?: MailOutboxOptions;
}

/**
 * Builds the whole server without listening: opens the database (migrating it to the latest
 * schema) and the photo storage, and registers every route. Tests drive the result with
 * `inject()`; main.ts listens on it. Closing the app closes the database.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...loggerOptions(config.logLevel, options.logStream),
    trustProxy: config.trustProxy,
    frameworkErrors: answerFrameworkError,
  });
  const database = openDatabase(config.database, {
    onIdleConnectionError: (error) => app.log.warn({ err: error }, "idle database connection lost"),
    checkpointInBackground: {
      onFailure: (error) =>
        app.log.warn({ err: error }, "background checkpoints stopped; SQLite checkpoints inside commits again"),
    },
    writeLockWaitMs: serverSqliteLockWaitMs,
    ...(options.onQuery ? { onQuery: options.onQuery } : {}),
  });
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
  const mailTransport = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    logger: app.log,
  });
  app.addHook("onClose", () => mailTransport.close());
  // Every mail goes through the outbox (ADR 0077): queued, sealed with the key outside the database
  // (ADR 0041), and sent by the worker, so no request waits on the mail server.
  const mailer = new MailOutbox(
    {
      repository: new MailOutboxRepository(database.db),
      db: database.db,
      seal: new MailSeal(await loadFactorSecretsKey(config.auth.factorSecretsKey, config.dataDir)),
      transport: mailTransport,
      log: app.log,
      messageIdDomain: new URL(config.publicUrl).hostname,
    },
    { ...(options.now ? { now: options.now } : {}), ...options.mailOutbox },
  );
  app.addHook("onReady", async () => mailer.start());
  // Before the transport and the database close: a send under way is recorded, or left to its lease.
  app.addHook("preClose", () => mailer.stop());

  const audit = new AuditLogRepository(database.db);
  const invitations = new InvitationsService({ invitations: new InvitationsRepository(database.db), audit });
  // The read behind every bearer token, shared by the auth service and the product API's door.
  const memberCheck = new MemberCheck(database.db, config.database.engine);
  // Paired frames (ADR 0076): the device grant binds the session a frame fetches to the frame a member approved.
  const framesRepository = new FramesRepository(database.db, config.database.engine);
  const auth = await createAuthModule({
    config,
    db: database.db,
    // Auth declares what it asks of the mail and the audit log (ADR 0037); these fill it in.
    mailer: templatedMailer(mailer),
    invitations,
    audit,
    sessionLookup: memberCheck,
    pairedDevices: framesRepository,
    // Cards show display names: a change reaches open screens like a change to a memory does.
    onProfileChanged: (userId) => events.publish({ type: "profile.updated", id: userId, actor: userId }),
    ...(options.now ? { now: options.now } : {}),
    ...(options.passwordHashCost ? { passwordHashCost: options.passwordHashCost } : {}),
  });
  const authenticateMember = memberAuthenticator(auth.sessions, memberCheck);

  const settings = new InstanceSettingsRepository(database.db);
  const photosRepository = new PhotosRepository(database.db);
  // Signs photo access cookies and export download tickets (each with its own purpose).
  const photoUrlSecret = Buffer.from(
    config.photos.urlSecret ?? (await settings.putIfAbsent("photos.url_secret", randomBytes(32).toString("base64"))),
    config.photos.urlSecret ? "utf8" : "base64",
  );
  const photos = new PhotosService({
    photos: photosRepository,
    blobStore,
    urlSecret: photoUrlSecret,
    uploadDir: path.join(config.dataDir, "uploads"),
    maxPixels: config.photos.maxMegapixels * 1_000_000,
    maxUploadBytes: config.photos.maxUploadBytes,
    accessTtlSeconds: config.photos.accessTtlSeconds,
    log: app.log,
    ...(options.now ? { now: options.now } : {}),
  });
  const events =
    config.database.engine === "postgres"
      ? await PostgresEventBus.connect(config.database.url, app.log)
      : new InProcessEventBus();
  app.addHook("onClose", () => events.close());
  announceAccessChanges(app, events);
  // On SQLite another process (the CLI) signals through the database; PostgreSQL's NOTIFY reaches the bus itself.
  const readSettingNow = database.readSettingNow;
  if (readSettingNow) {
    const stopWatching = watchAccessSignal(
      () => readSettingNow(accessSignalSetting),
      () => events.publish({ type: "access.changed" }),
    );
    app.addHook("onClose", async () => stopWatching());
  }
  const memoriesRepository = new MemoriesRepository(database.db, config.database.engine);
  // Place names (ADR 0058): loaded on first use, shared by the lookups' routes and the country a place is given.
  const placeNames = new GeoNamesPlaceNames();
  const countryAt = options.countryAt ?? ((point: GeoPoint) => placeNames.countryAt(point));
  // Web Push (ADR 0059): a change enters the outbox in the process that made it (beside the bus,
  // which every process receives); each process's runner sends what is due.
  const vapidKeys = await resolveVapidKeys(config.push.vapidKeys, (key, value) => settings.putIfAbsent(key, value));
  const notificationsRepository = new NotificationsRepository(database.db);
  const { groupingWindowMs, ...runnerOptions } = options.notifications ?? {};
  const notifications = new NotificationsService({
    repository: notificationsRepository,
    sender: new PushSender({
      keys: vapidKeys,
      subject: config.push.vapidSubject,
      allowAnyAddress: config.push.allowInsecureEndpoints,
    }),
    publicKey: vapidKeys.publicKey,
    onThisDayCount: onThisDayCounter(memoriesRepository, config.onThisDayWindowDays),
    log: app.log,
    ...(groupingWindowMs === undefined ? {} : { groupingWindowMs }),
    ...(options.now ? { now: options.now } : {}),
  });
  const notificationRunner = new NotificationRunner(notificationsRepository, notifications, app.log, {
    ...(options.now ? { now: options.now } : {}),
    ...runnerOptions,
  });
  app.addHook("onReady", async () => notificationRunner.start());
  app.addHook("onClose", () => notificationRunner.stop());
  /** Publishes a member's change, and queues its notifications after the request's own work. */
  const publishAndNotify = (event: MemoryEvent, added?: AddedResponse) => {
    events.publish(event);
    setImmediate(() => {
      notifications.noticeChange(event, added).then(
        (queued) => queued && notificationRunner.wake(),
        (error: unknown) => app.log.warn({ err: error }, "queueing push notifications failed"),
      );
    });
  };
  const memories = new MemoriesService({
    memories: memoriesRepository,
    photos: photosRepository,
    presentPhoto: (photo) => photos.present(photo),
    deletePhotoFiles: (removed) => photos.deleteFiles(removed),
    publish: publishAndNotify,
    countryAt,
    onThisDayWindowDays: config.onThisDayWindowDays,
    ...(options.maxKeptSearchMatches === undefined ? {} : { maxKeptSearchMatches: options.maxKeptSearchMatches }),
  });
  // Videos (ADR 0055): checked and given a poster on upload; their web copies made by media jobs
  // (ADR 0054), a few at a time, at a lower CPU priority than requests, surviving restarts.
  let videoTools: Promise<VideoTools> | undefined;
  const resolveTools = () =>
    (videoTools ??= resolveVideoTools({
      ffmpegPath: config.videos.ffmpegPath,
      ffprobePath: config.videos.ffprobePath,
    }).catch((error: unknown) => {
      videoTools = undefined;
      throw error;
    }));
  const mediaJobAttempts = 3;
  const mediaJobsRepository = new MediaJobsRepository(database.db);
  const mediaJobs = new MediaJobRunner(mediaJobsRepository, {
    concurrency: config.videos.jobConcurrency,
    maxAttempts: mediaJobAttempts,
    onProgress: (report) => {
      videos.reportJob(report).catch((error: unknown) => app.log.warn({ err: error }, "could not report a video's progress"));
    },
  });
  const videos = new VideosService({
    db: database.db,
    photos,
    blobStore,
    tools: resolveTools,
    workDir: path.join(config.dataDir, "uploads"),
    maxBytes: config.videos.maxBytes,
    maxSeconds: config.videos.maxSeconds,
    maxAttempts: mediaJobAttempts,
    wakeJobs: () => mediaJobs.wake(),
    publishProgress: (progress) =>
      events.publish({
        type: mediaProgressEventType,
        data: {
          id: progress.id,
          memory_id: progress.memoryId,
          status: progress.status,
          progress: progress.progress,
          error_code: progress.errorCode,
        },
        // In no memory yet: its uploader's alone (nobody's, once their account is gone).
        audience: progress.memoryId === null ? (progress.ownerId ?? "") : null,
      }),
    publishMemoryUpdated: (memoryId, actor) => events.publish({ type: "memory.updated", id: memoryId, actor }),
    log: app.log,
    ...(options.now ? { now: options.now } : {}),
  });
  mediaJobs.register(webCopyJobKind, (context) => videos.makeWebCopy(context));
  mediaJobs.register(photoLocationsJobKind, async ({ job }) => {
    const { located, next } = await photos.readMissingLocations(job.subject_id);
    if (located > 0) app.log.info({ located }, "read the positions of older photos");
    if (next !== null) await mediaJobs.enqueue(photoLocationsJobKind, next);
  });
  const mediaIntake = new MediaIntake({ photos, videos });
  app.addHook("onReady", async () => mediaJobs.start());
  // Before the database closes: running jobs are abandoned, their leases left to expire, and the
  // next start (or another process) takes them again.
  app.addHook("preClose", async () => mediaJobs.stop({ abandon: true }));
  const leftovers = await photos.removeLeftoverUploads();
  if (leftovers.files > 0) app.log.info(leftovers, "removed uploads a crash had interrupted");
  const reconciler = new PhotoFilesReconciler({ photos: photosRepository, blobStore, log: app.log });
  schedulePhotoSweeps(
    app,
    photos,
    () => reconciler.run(config.photos.orphanGraceMs),
    () =>
      mediaJobsRepository.pruneFinished(
        new Date((options.now?.() ?? new Date()).getTime() - finishedMediaJobLifetimeMs).toISOString(),
      ),
  );
  if (config.backups.dir !== undefined) {
    const backups = new BackupScheduler({
      service: new BackupService({
        database: config.database,
        blobStore,
        backupDir: config.backups.dir,
        keep: config.backups.keep,
      }),
      schedule: config.backups.schedule,
      log: app.log,
    });
    app.addHook("onReady", () => backups.start());
    app.addHook("onClose", async () => backups.stop());
  }

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerRequestLogging(app);
  registerRequestLanguages(app, options.languages);
  registerErrorHandler(app);
  rejectNulCharacters(app);

  registerSecurityHeaders(app, { mapContentOrigins: config.maps.contentOrigins });
  // Members reach us over https: cookies are then Secure.
  const secureCookies = config.publicUrl.startsWith("https:");
  renewPhotoAccessWithMemberResponses(app, photos, secureCookies);
  // Limits are set per route (auth endpoints, invitation checks) from the AUTH_RATE_LIMIT_* settings.
  await app.register(fastifyRateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError("over_request_rate_limit"),
    // Several processes may share a PostgreSQL database, and then each limit (issue #37); SQLite is one process, counting in memory.
    ...(config.database.engine === "postgres" ? { store: databaseRateLimitStore(database.db) } : {}),
  });
  await app.register(fastifySwagger, {
    openapi: { info: { title: "Memory Box API", version: config.version }, servers: [] },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs", staticCSP: true });
  app.get("/api/openapi.json", { schema: { hide: true } }, () => app.swagger());

  await app.register(healthRoutes, {
    db: database.db,
    blobStore,
    version: config.version,
    storageMinFreeMb: config.storageMinFreeMb,
    mail: () => mailer.health(),
  });
  await app.register(authRoutes, { prefix: "/auth/v1", auth, config: config.auth, secureCookies });
  await app.register(samlRoutes, { prefix: "/auth/v1", sso: auth.sso, rateLimits: config.auth.rateLimits });
  await app.register(adminRoutes, {
    prefix: "/auth/v1",
    admin: auth.admin,
    factors: auth.factors,
    passkeys: auth.passkeys,
    sso: auth.sso,
    oauthClients: auth.oauthClients,
  });
  await app.register(rpcRoutes, {
    service: invitations,
    authenticate: async (request) => {
      const { user } = await authenticateMember(request);
      return { userId: user.id, email: user.email };
    },
    ...(config.auth.rateLimits
      ? { inviteCheckRateLimit: { max: config.auth.rateLimits.inviteCheck, timeWindow: 5 * 60 * 1000 } }
      : {}),
  });
  // The e-mail digest (ADR 0060): sent in the background each minute's tick, never by a request;
  // its unsubscribe links are signed with the server's signing secret, for their own purpose.
  const emailDigests = new EmailDigestService({
    digests: new EmailDigestRepository(database.db),
    mailer,
    secret: photoUrlSecret,
    siteUrl: config.auth.siteUrl,
    publicUrl: config.publicUrl,
    log: app.log,
    ...(options.now ? { now: options.now } : {}),
  });
  const emailDigestScheduler = new EmailDigestScheduler(emailDigests, app.log);
  app.addHook("onReady", async () => emailDigestScheduler.start());
  // Before the mailer and the database close: a digest being sent is marked done first.
  app.addHook("preClose", async () => emailDigestScheduler.stop());
  await app.register(emailDigestRoutes, { service: emailDigests, authenticate: authenticateMember });
  await app.register(devicesRoutes, {
    devices: new DevicesService({ sessions: auth.sessionRows, audit, ...(options.now ? { now: options.now } : {}) }),
    authenticate: authenticateMember,
  });
  await app.register(firstRunGuideRoutes, {
    guide: new FirstRunGuideService({
      guides: new FirstRunGuideRepository(database.db),
      ...(options.now ? { now: options.now } : {}),
    }),
    authenticate: authenticateMember,
  });
  const members = new MembersService({
    members: new MembersRepository(database.db),
    invitations,
    mailer,
    mailLeavesTheServer: config.smtpUrl !== undefined,
    siteUrl: config.auth.siteUrl,
    log: app.log,
    resetSecondFactors: (userId, resetBy) => auth.factors.resetAll(userId, resetBy),
  });
  await app.register(membersRoutes, { service: members, authenticate: authenticateMember });
  const box = new BoxService({
    box: new BoxRepository(database.db),
    requireOwner: (caller) => members.requireOwner(caller),
    publish: (actorId) => events.publish({ type: "box.updated", id: "box", actor: actorId }),
    ...(options.now ? { now: options.now } : {}),
  });
  await app.register(boxRoutes, { box, authenticate: authenticateMember });
  const registeredApps = new RegisteredAppsService({
    clients: auth.oauthClients,
    requireOwner: (caller) => members.requireOwner(caller),
    audit,
  });
  await app.register(registeredAppsRoutes, { apps: registeredApps, authenticate: authenticateMember });
  const frames = new FramesService({
    frames: framesRepository,
    pairings: auth.deviceAuthorizations,
    audit,
    onThisDayWindowDays: config.onThisDayWindowDays,
    ...(options.now ? { now: options.now } : {}),
  });
  await app.register(framesRoutes, {
    frames,
    authenticate: authenticateMember,
    codeAttempts: config.auth.rateLimits ? config.auth.rateLimits.verify : false,
  });
  await app.register(frameRoutes, {
    frames,
    photos,
    authenticateFrame: frameAuthenticator(auth.sessions, new FrameCheck(framesRepository)),
  });
  await app.register(singleSignOnRoutes, {
    sso: auth.sso,
    authenticate: authenticateMember,
    requireOwner: (member) => members.requireOwner(member),
  });
  // Creates a client may send again take an Idempotency-Key, kept a day per member, each answer
  // recorded in its create's transaction (ADR 0043).
  const idempotency = new IdempotencyService({
    keys: new IdempotencyRepository(database.db),
    ...(options.now ? { now: options.now } : {}),
  });
  const idempotentCreate = idempotentCreates(idempotency, (request) => memberOf(request).user.id);
  await app.register(memoriesRoutes, {
    service: memories,
    authenticate: authenticateMember,
    idempotentCreate,
    requireOwner: (member) => members.requireOwner(member),
  });
  await app.register(placesRoutes, {
    service: new PlacesService({
      places: new PlacesRepository(database.db),
      photoUrl,
      mapStyleUrl: config.maps.styleUrl,
    }),
    authenticate: authenticateMember,
  });
  const comments = new CommentsService({
    comments: new CommentsRepository(database.db),
    publish: publishAndNotify,
    ...(options.now ? { now: options.now } : {}),
  });
  await app.register(commentsRoutes, { service: comments, authenticate: authenticateMember, idempotentCreate });
  // Place names from the GeoNames data the server ships (ADR 0058), loaded on first use.
  await app.register(placeLookupRoutes, { places: placeNames, authenticate: authenticateMember });
  await app.register(photoUploadRoutes, {
    service: photos,
    authenticate: authenticateMember,
    maxUploadBytes: config.photos.maxUploadBytes,
    accept: (ownerId, file, fileName) => mediaIntake.accept(ownerId, file, fileName),
  });
  await app.register(photoReadRoutes, { service: photos, authenticate: authenticateMember });
  await app.register(videosRoutes, {
    videos,
    photos,
    authenticate: authenticateMember,
    maxUploadBytes: config.photos.maxUploadBytes,
  });
  // Large files (videos) upload resumably over tus (ADR 0056); partial uploads wait beside DATA_DIR's other files.
  const resumableUploads = new ResumableUploadsService({
    directory: path.join(config.dataDir, "resumable-uploads"),
    maxBytes: config.videos.maxBytes,
    log: app.log,
    // A completed upload is a received file like any other: its bytes decide photo or video, each
    // kind refused past its own limit before anything is decoded (ADR 0055).
    complete: ({ ownerId, file, fileName }) => mediaIntake.accept(ownerId, file, fileName),
  });
  scheduleResumableUploadSweeps(app, resumableUploads);
  await app.register(resumableUploadsRoutes, { service: resumableUploads, authenticate: authenticateMember });
  await app.register(photoAccessRoutes, { service: photos, authenticate: authenticateMember, secureCookies });
  await app.register(photoObjectRoutes, {
    service: photos,
    authenticateViewer: bearerOrTicketAuthenticator(
      authenticateMember,
      auth.sessions,
      memberCheck,
      (request) => photos.readAccess(readPhotoAccessCookie(request))?.sessionId,
    ),
  });
  const sqliteFile = config.database.engine === "sqlite" ? config.database.file : undefined;
  await app.register(archiveRoutes, {
    exporter: new ArchiveExporter({
      archive: new ArchiveRepository(database.db, config.database.engine),
      memories: memoriesRepository,
      blobStore,
      tempDir: path.join(config.dataDir, "uploads"),
    }),
    authenticate: authenticateMember,
    authenticateDownload: bearerOrTicketAuthenticator(authenticateMember, auth.sessions, memberCheck, (request) => {
      const { ticket } = request.query as { ticket?: string };
      return readTicket(exportTicketPurpose, ticket, photoUrlSecret, options.now?.() ?? new Date())?.sessionId;
    }),
    ticketSecret: photoUrlSecret,
    imports: new ArchiveImports({
      importer: new ArchiveImporter({
        archive: new ArchiveRepository(database.db, config.database.engine),
        memories: memoriesRepository,
        ...(sqliteFile !== undefined && { saving: (work) => inOwnSqliteTransaction(sqliteFile, work) }),
        photos: photosRepository,
        photoFiles: photos,
        videoFiles: videos,
        limits: archiveLimits(config.photos.maxUploadBytes, config.videos.maxBytes),
        tempDir: path.join(config.dataDir, "uploads"),
        publish: (event) => events.publish(event),
        countryAt,
      }),
      limits: archiveLimits(config.photos.maxUploadBytes, config.videos.maxBytes),
      tempDir: path.join(config.dataDir, "uploads"),
    }),
    requireOwner: (member) => members.requireOwner(member),
    ...(options.now ? { now: options.now } : {}),
  });
  await app.register(notificationsRoutes, {
    service: notifications,
    authenticate: authenticateMember,
    allowInsecureEndpoints: config.push.allowInsecureEndpoints,
  });
  await app.register(eventsRoutes, {
    bus: events,
    authenticate: authenticateMember,
    ...(options.eventsHeartbeatMs ? { heartbeatMs: options.eventsHeartbeatMs } : {}),
  });
  await app.register(storageRoutes, {
    buckets: new BucketsService({ buckets: new BucketsRepository(database.db), blobStore }),
    requireServiceRole: serviceRoleAuthenticator((authorization) => auth.admin.authorize(authorization)),
  });

  registerShareTarget(app, config.publicUrl);
  // The installed app takes the box's name (ADR 0065).
  await registerWebApp(app, config.webDir, { appName: async () => (await box.read()).name });
  return app;
}

/**
 * Sign-outs, password changes, bans and deleted accounts all come through /auth/v1: after any
 * request there that may change something, open live streams check their members again (the bus
 * carries the hint to every server process); so do an owner's changes under /api/v1/members (a
 * removed member) and a device signed out under /api/v1/account/. Invitations revoked by the CLI
 * announce themselves (a NOTIFY on PostgreSQL, the access signal SQLite servers poll).
 */
function announceAccessChanges(app: FastifyInstance, events: EventBus): void {
  app.addHook("onResponse", async (request) => {
    if (
      request.method !== "GET" &&
      request.method !== "HEAD" &&
      request.method !== "OPTIONS" &&
      ["/auth/v1/", "/api/v1/members", "/api/v1/account/"].some((prefix) => request.url.startsWith(prefix))
    ) {
      events.publish({ type: "access.changed" });
    }
  });
}

/** How long a done or failed media job is kept (what a screen showed of it is long over). */
const finishedMediaJobLifetimeMs = 7 * 24 * 3600_000;

/**
 * Uploads never attached to a memory are removed after a day, and media jobs a week after they
 * were done or failed; checked at start and every hour. Files and rows are reconciled at start
 * and daily (files no row names, rows whose files are gone). Photos from before display copies
 * get theirs rendered once, in the background, at start.
 */
function schedulePhotoSweeps(
  app: FastifyInstance,
  photos: PhotosService,
  reconcileFiles: () => Promise<FileReconciliation>,
  pruneMediaJobs: () => Promise<number>,
): void {
  const sweep = () => {
    photos.sweepUnattached().then(
      (swept) => swept > 0 && app.log.info({ swept }, "removed photos never attached to a memory"),
      (error: unknown) => app.log.warn({ err: error }, "photo sweep failed"),
    );
    pruneMediaJobs().then(
      (pruned) => pruned > 0 && app.log.info({ pruned }, "removed media jobs finished more than a week ago"),
      (error: unknown) => app.log.warn({ err: error }, "pruning media jobs failed"),
    );
  };
  const renderDisplayCopies = () => {
    photos.renderMissingDisplayCopies().then(
      (rendered) => rendered > 0 && app.log.info({ rendered }, "rendered display copies of older photos"),
      (error: unknown) => app.log.warn({ err: error }, "rendering display copies failed"),
    );
  };
  const reconcile = () => {
    reconcileFiles().then(
      ({ filesChecked, orphansRemoved, orphanBytes, missingCount }) =>
        app.log.info({ filesChecked, orphansRemoved, orphanBytes, rowsMissingFiles: missingCount }, "photo files reconciled"),
      (error: unknown) => app.log.warn({ err: error }, "reconciling photo files failed"),
    );
  };
  const timers = [setInterval(sweep, 3600_000).unref(), setInterval(reconcile, 24 * 3600_000).unref()];
  app.addHook("onReady", async () => {
    sweep();
    reconcile();
    renderDisplayCopies();
  });
  app.addHook("onClose", async () => timers.forEach((timer) => clearInterval(timer)));
}

/** Partial uploads without progress for a day are removed: checked at start and every hour. */
function scheduleResumableUploadSweeps(app: FastifyInstance, uploads: ResumableUploadsService): void {
  const sweep = () => {
    uploads.sweepExpired().then(
      (swept) => swept > 0 && app.log.info({ swept }, "removed resumable uploads that stopped a day ago"),
      (error: unknown) => app.log.warn({ err: error }, "resumable upload sweep failed"),
    );
  };
  const timer = setInterval(sweep, 3600_000).unref();
  app.addHook("onReady", async () => sweep());
  app.addHook("onClose", async () => clearInterval(timer));
}
