import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../errors";
import type { Caller, SessionService, SigningKeys } from "../modules/auth";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in member, on routes behind `requireMembers`. */
    member: Caller | null;
  }
}

/**
 * The product API's door: a request passes only with a valid access token whose session is
 * still live and whose owner is still invited. Anything else is 401, keeping the auth service's
 * code so a client can tell an ended session (`session_not_found`) from a bad token (`bad_jwt`).
 */
export function memberAuthenticator(sessions: SessionService): (request: FastifyRequest) => Promise<Caller> {
  return async (request) => {
    try {
      return await sessions.authenticate(request.headers.authorization);
    } catch (error) {
      if (error instanceof AppError) {
        if (error.code === "no_authorization") throw new AppError("not_authenticated");
        throw new AppError(error.code, { status: 401, message: error.message });
      }
      throw error;
    }
  };
}

/** Every route registered in `app` (an encapsulated plugin) requires a signed-in member. */
export function requireMembers(app: FastifyInstance, authenticate: (request: FastifyRequest) => Promise<Caller>): void {
  if (!app.hasRequestDecorator("member")) app.decorateRequest("member", null);
  app.addHook("onRequest", async (request) => {
    request.member = await authenticate(request);
  });
}

/** The member of a request behind `requireMembers`. */
export function memberOf(request: FastifyRequest): Caller {
  if (!request.member) throw new AppError("not_authenticated");
  return request.member;
}

/** For operator routes (bucket management): the request must carry a service-role token. */
export function serviceRoleAuthenticator(keys: SigningKeys): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? "")?.[1];
    if (!token) throw new AppError("not_authenticated");
    try {
      await keys.verifyAdminToken(token);
    } catch (error) {
      if (error instanceof AppError) throw new AppError(error.code, { status: 403, message: error.message });
      throw error;
    }
  };
}
