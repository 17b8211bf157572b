import type { FastifyRequest } from "fastify";
import { AppError } from "../errors";
import { AuthError } from "../modules/auth/auth-error";
import type { Caller, SessionService } from "../modules/auth/session.service";

/**
 * The product API's door: a request passes only with a valid access token whose session is
 * still live and whose owner is still invited. Anything else is 401 `not_authenticated`-style,
 * keeping the auth service's code so a client can tell an ended session from a bad token.
 */
export function memberAuthenticator(sessions: SessionService): (request: FastifyRequest) => Promise<Caller> {
  return async (request) => {
    try {
      return await sessions.authenticate(request.headers.authorization);
    } catch (error) {
      if (error instanceof AuthError) {
        const code = error.code === "no_authorization" ? "not_authenticated" : error.code;
        throw new AppError(401, code, error.code === "no_authorization" ? "Not authenticated" : error.message);
      }
      throw error;
    }
  };
}
