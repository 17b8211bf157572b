import { FRAME_CLIENT_ID, FRAME_SCOPE } from "@memory-box/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { FrameRow } from "../../db/schema";
import { AppError } from "../../errors";
import type { LiveSession, SessionLookup, SessionService } from "../auth";
import { unauthenticatedOnRefusal } from "../member-door";
import type { FramesRepository } from "./frames.repository";

/** A live session as the frame door reads it: with its scope and the frame that holds it. */
export interface FrameSession extends LiveSession {
  scope: string | null;
  frame: FrameRow | undefined;
}

/** The frame door's read: the session, its account and invitation, and its frame, in one query on every request. */
export class FrameCheck implements SessionLookup<FrameSession> {
  constructor(private readonly frames: Pick<FramesRepository, "findFrameSession">) {}

  findLive(sessionId: string): Promise<FrameSession | undefined> {
    return this.frames.findFrameSession(sessionId);
  }
}

declare module "fastify" {
  interface FastifyRequest {
    /** The frame asking, on the frame's own routes (`/api/v1/frame/*`). */
    frame: FrameRow | null;
  }
}

/**
 * The door of `/api/v1/frame/*` (ADR 0076): a live session of the frame client with the `frame`
 * scope, held by a frame that still exists, of a member still let in. Anything else is 401, with
 * the auth service's code (`not_authenticated`, `bad_jwt`, `session_not_found`…) or
 * `frame_not_found` for a session that is not a frame's: a member's own, another app's, or a
 * frame's that was removed. The product API's door refuses a frame's session as before.
 */
export function frameAuthenticator(sessions: SessionService, check: FrameCheck): (request: FastifyRequest) => Promise<FrameRow> {
  return async (request) => {
    const { session } = await unauthenticatedOnRefusal(
      sessions.authenticateWith(request.headers.authorization, check, { allowClientSessions: true, allowFrameSessions: true }),
    );
    const scopes = (session.scope ?? "").split(" ");
    if (session.oauthClientId !== FRAME_CLIENT_ID || !scopes.includes(FRAME_SCOPE) || !session.frame)
      throw new AppError("frame_not_found", { status: 401 });
    return session.frame;
  };
}

/** Every route registered in `app` (an encapsulated plugin) requires a paired frame. */
export function requireFrames(app: FastifyInstance, authenticate: (request: FastifyRequest) => Promise<FrameRow>): void {
  if (!app.hasRequestDecorator("frame")) app.decorateRequest("frame", null);
  app.addHook("onRequest", async (request) => {
    request.frame = await authenticate(request);
  });
}

/** The frame of a request behind `requireFrames`. */
export function frameOf(request: FastifyRequest): FrameRow {
  if (!request.frame) throw new AppError("not_authenticated");
  return request.frame;
}
