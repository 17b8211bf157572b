import fastifyRateLimit from "@fastify/rate-limit";
import Fastify, { type FastifyInstance, type FastifyRequest } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DatabaseHandle } from "../../db/database";
import { AppError } from "../../errors";
import { registerErrorHandler } from "../../plugins/error-handler";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { AuditLogRepository } from "../audit/audit-log.repository";
import { InvitationsRepository } from "./invitations.repository";
import { type InvitationCaller, InvitationsService } from "./invitations.service";
import { type RpcRoutesOptions, rpcRoutes } from "./rpc.routes";
import { clearInvitationData, insertMemberWithSession } from "./test-helpers";

describe.each(testEngines())("the invitation RPCs on %s", (engine) => {
  let database: DatabaseHandle & { close(): Promise<void> };
  let service: InvitationsService;
  let app: FastifyInstance;
  // Stands in for the session check: the bearer token is the key of a signed-in caller.
  const callers = new Map<string, InvitationCaller>();
  const authenticate = async (request: FastifyRequest): Promise<InvitationCaller> => {
    const caller = callers.get(request.headers.authorization ?? "");
    if (!caller) throw new AppError("not_authenticated", { message: "Sign in first" });
    return caller;
  };

  /** A bare server with just what the RPC routes rely on from the app. */
  async function buildServer(options: Partial<RpcRoutesOptions> = {}): Promise<FastifyInstance> {
    const server = Fastify();
    server.setValidatorCompiler(validatorCompiler);
    server.setSerializerCompiler(serializerCompiler);
    registerErrorHandler(server);
    await server.register(fastifyRateLimit, { global: false });
    await server.register(rpcRoutes, { service, authenticate, ...options });
    await server.ready();
    return server;
  }

  const isInvited = (server: FastifyInstance, payload: unknown) =>
    server.inject({ method: "POST", url: "/rest/v1/rpc/is_email_invited", payload: payload as Record<string, unknown> });
  const markUsed = (payload: unknown, token?: string) =>
    app.inject({
      method: "POST",
      url: "/rest/v1/rpc/mark_email_used",
      payload: payload as Record<string, unknown>,
      headers: token ? { authorization: token } : {},
    });

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    service = new InvitationsService({
      invitations: new InvitationsRepository(database.db),
      audit: new AuditLogRepository(database.db),
    });
    app = await buildServer();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });
  beforeEach(async () => {
    await clearInvitationData(database.db);
    callers.clear();
  });

  it("answers is_email_invited with a bare JSON boolean, case-insensitively", async () => {
    await service.invite(["ann@example.org"], "cli");

    const invited = await isInvited(app, { check_email: "Ann@Example.ORG" });
    expect(invited.statusCode).toBe(200);
    expect(invited.headers["content-type"]).toMatch(/^application\/json/);
    expect(invited.body).toBe("true");

    const stranger = await isInvited(app, { check_email: "bob@example.org" });
    expect(stranger.statusCode).toBe(200);
    expect(stranger.body).toBe("false");
    expect((await isInvited(app, { check_email: "not an address" })).body).toBe("false");
  });

  it.each([
    ["a missing check_email", {}, "body.check_email"],
    ["a check_email that is not a string", { check_email: 42 }, "body.check_email"],
    ["an argument the function does not take", { check_email: "ann@example.org", extra: true }, "body"],
  ])("rejects %s with a 400 validation error", async (_case, payload, path) => {
    const response = await isInvited(app, payload);
    expect(response.statusCode).toBe(400);
    const body = response.json<{ code: string; details: { path: string }[] }>();
    expect(body.code).toBe("validation_failed");
    expect(body.details.map((detail) => detail.path)).toContain(path);
  });

  it("limits is_email_invited per client when a rate limit is set", async () => {
    const limited = await buildServer({ inviteCheckRateLimit: { max: 3, timeWindow: 60_000 } });
    try {
      for (let attempt = 0; attempt < 3; attempt++)
        expect((await isInvited(limited, { check_email: "ann@example.org" })).statusCode).toBe(200);
      expect((await isInvited(limited, { check_email: "ann@example.org" })).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it("requires a session for mark_email_used", async () => {
    await service.invite(["ann@example.org"], "cli");
    const response = await markUsed({ user_email: "ann@example.org" });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: "not_authenticated", message: "Sign in first" });
  });

  it("refuses to mark someone else's address", async () => {
    const ann = await insertMemberWithSession(database.db, "ann@example.org");
    callers.set("ann-token", { userId: ann.userId, email: "ann@example.org" });
    await service.invite(["ann@example.org", "bob@example.org"], "cli");

    const response = await markUsed({ user_email: "bob@example.org" }, "ann-token");
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ code: "forbidden", message: "You can only mark your own address" });
    expect((await service.list()).every((row) => row.used_at === null)).toBe(true);
  });

  it("marks the caller's own address used and answers null, however often it is called", async () => {
    const ann = await insertMemberWithSession(database.db, "ann@example.org");
    callers.set("ann-token", { userId: ann.userId, email: "ann@example.org" });
    await service.invite(["ann@example.org"], "cli");

    const first = await markUsed({ user_email: "Ann@Example.org" }, "ann-token");
    expect(first.statusCode).toBe(200);
    expect(first.headers["content-type"]).toMatch(/^application\/json/);
    expect(first.body).toBe("null");
    const [marked] = await service.list();
    expect(marked).toMatchObject({ used_by: ann.userId });
    expect(marked?.used_at).not.toBeNull();

    const again = await markUsed({ user_email: "ann@example.org" }, "ann-token");
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe("null");
    expect((await service.list())[0]?.used_at).toBe(marked?.used_at);
  });

  it("rejects a mark_email_used body without user_email", async () => {
    const response = await markUsed({ email: "ann@example.org" }, "ann-token");
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: "validation_failed" });
  });
});
