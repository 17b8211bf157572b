import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError } from "../../errors";
import type { CollectionStats, UserRow } from "../../db/schema";
import { type Caller, hasVerifiedFactor, type SessionService } from "../auth";
import type { MemberCheck, MemberSession } from "./member-check";

/** A signed-in member of the collection, as the product API's door let them in. */
export interface Member extends Caller {
  /**
   * The collection's `memory_stats` as the member check read them (same query, after the request
   * arrived): what list pages are cached under. Undefined only if the row was removed by hand.
   */
  collection: CollectionStats | undefined;
}

/** Resolves a request to its member, or throws 401. */
export type MemberAuthenticator = (request: FastifyRequest) => Promise<Member>;

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in member, on routes behind `requireMembers`. */
    member: Member | null;
  }
}

/**
 * The product API's door: a request passes only with a valid access token whose session is
 * still live and whose owner is still invited, as the auth service rules on what the member check
 * read. Anything else is 401, keeping the auth service's code so a client can tell an ended
 * session (`session_not_found`) from a bad token (`bad_jwt`).
 */
export function memberAuthenticator(sessions: SessionService, memberCheck: MemberCheck): MemberAuthenticator {
  return async (request) => {
    const { caller, session } = await unauthenticatedOnRefusal(
      sessions.authenticateWith(request.headers.authorization, memberCheck, {
        allowClientSessions: true,
        allowFrameSessions: true,
      }),
    );
    assertMember(session);
    return { ...caller, collection: session.collection };
  };
}

/**
 * What the collection asks of a live session beyond the auth service's rules: an account with an
 * address (an anonymous one, ADR 0072, is refused with 403 `anonymous_not_member`), the member's
 * own sign-in (an OAuth 2.1 client's session, ADR 0075, is refused with 403
 * `oauth_client_session_not_allowed`) and a second
 * factor proven where the member has one.
 */
function assertMember(session: MemberSession): void {
  if (session.user.anonymous_since !== null) throw new AppError("anonymous_not_member");
  // A session an OAuth 2.1 client holds reads the account (`GET /auth/v1/user`) and nothing of the collection (ADR 0075).
  if (session.oauthClientId !== null) throw new AppError("oauth_client_session_not_allowed");
  assertSecondFactorProven(session);
}

/**
 * A member with a verified second factor reaches memories, photos and the live stream only from a
 * session that proved it (aal2, ADR 0022). Refused with 403 `insufficient_aal`, not 401: the
 * session is good, and the client asks for the code rather than signing in again.
 */
function assertSecondFactorProven(session: MemberSession): void {
  if (session.aal !== "aal2" && hasVerifiedFactor(session.user.mfa_factors))
    throw new AppError("insufficient_aal", { text: { id: "errorText.secondStepNeeded" } });
}

/**
 * The door for what a browser fetches without a bearer token — photo bytes (ADR 0018), the export
 * download: a bearer token as on the API, or else a session ticket (lib/session-ticket), whose
 * session must be as live, unbanned and invited as a token's. `sessionOfTicket` reads the ticket's
 * session id if the ticket is genuine, for this use and unexpired.
 */
export function bearerOrTicketAuthenticator(
  authenticate: MemberAuthenticator,
  sessions: SessionService,
  memberCheck: MemberCheck,
  sessionOfTicket: (request: FastifyRequest) => string | undefined,
): (request: FastifyRequest) => Promise<UserRow> {
  return async (request) => {
    if (request.headers.authorization !== undefined) return (await authenticate(request)).user;
    const sessionId = sessionOfTicket(request);
    if (sessionId === undefined) throw new AppError("not_authenticated");
    const session = await unauthenticatedOnRefusal(sessions.admitSession(sessionId, memberCheck));
    assertMember(session);
    return session.user;
  };
}

/** The session the auth service admits, or its refusal as a 401 (`asUnauthenticated`). */
export async function unauthenticatedOnRefusal<T>(admission: Promise<T>): Promise<T> {
  try {
    return await admission;
  } catch (error) {
    throw asUnauthenticated(error);
  }
}

/** The auth service's refusals as 401s with their own codes, so a client can tell an ended session from a bad token. */
function asUnauthenticated(error: unknown): unknown {
  if (error instanceof AppError && error.statusCode < 500) {
    if (error.code === "no_authorization") return new AppError("not_authenticated");
    return new AppError(error.code, { status: 401, ...(error.hasDefaultMessage ? {} : { message: error.message }) });
  }
  return error;
}

/** Every route registered in `app` (an encapsulated plugin) requires a signed-in member. */
export function requireMembers(app: FastifyInstance, authenticate: MemberAuthenticator): void {
  if (!app.hasRequestDecorator("member")) app.decorateRequest("member", null);
  app.addHook("onRequest", async (request) => {
    request.member = await authenticate(request);
  });
}

/** The member of a request behind `requireMembers`. */
export function memberOf(request: FastifyRequest): Member {
  if (!request.member) throw new AppError("not_authenticated");
  return request.member;
}

/**
 * For operator routes (bucket management): the auth service's one service-role check (`authorize`,
 * the admin API's own: signature, roles, its clock, and a live session for a token bound to one).
 * A missing token is `not_authenticated`, as on the product API.
 */
export function serviceRoleAuthenticator(
  authorize: (authorization: string | undefined) => Promise<unknown>,
): (request: FastifyRequest) => Promise<void> {
  return async (request) => {
    try {
      await authorize(serviceRoleCredential(request));
    } catch (error) {
      if (error instanceof AppError && error.code === "no_authorization") throw new AppError("not_authenticated");
      throw error;
    }
  };
}

/**
 * The service-role token as `Authorization: Bearer …`, or else from the `apikey` header, where
 * Supabase clients send it too; both go through the same check. Never from the query string.
 */
function serviceRoleCredential(request: FastifyRequest): string | undefined {
  if (request.headers.authorization !== undefined) return request.headers.authorization;
  const apikey = request.headers.apikey;
  return typeof apikey === "string" && apikey.trim() !== "" ? `Bearer ${apikey.trim()}` : undefined;
}
