import type { OutgoingHttpHeaders } from "node:http";
import { mediaProgressEventType, MemoryEventData, resyncEventType, sessionEndedEventType } from "@memory-box/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError, classifyError } from "../../errors";
import { memberOf, requireMembers, type MemberAuthenticator } from "../member-door";
import type { DeliveredEvent, EventBus } from "./event-bus";

export interface EventsRoutesOptions {
  bus: EventBus;
  authenticate: MemberAuthenticator;
  /** How often a comment line keeps proxies from closing an idle stream, and the session is re-checked. */
  heartbeatMs?: number;
}

/**
 * `GET /api/v1/events`: a Server-Sent Events stream of changes to the collection. The client
 * sends `Last-Event-ID` when it reconnects and receives what it missed, or a `resync` event when
 * that is no longer known (then it reloads). The stream ends when the member's session ends:
 * every stream checks its member again on each access hint on the bus (a sign-out, a revoked
 * invitation, a password change, from any server process or the CLI), and on its heartbeat. A
 * session that ended is told first (`sessionEndedEventType`), so the app signs out at once rather
 * than on its next request (ADR 0050); an access token that merely expired is not: the app
 * reconnects with a fresh one.
 */
export const eventsRoutes: FastifyPluginAsyncZod<EventsRoutesOptions> = async (
  app,
  { bus, authenticate, heartbeatMs = 25_000 },
) => {
  requireMembers(app, authenticate);
  /** The open streams: how to end each, and how to check its member again. */
  const open = new Map<(options?: { closeConnection?: boolean }) => void, () => void>();
  // Checked together, so the member checks of all streams share one read (member-check.ts).
  const stopWatchingAccess = bus.onAccessChanged(() => {
    for (const check of open.values()) check();
  });
  // Open streams would keep the server from shutting down; they end before it stops listening.
  app.addHook("preClose", async () => {
    stopWatchingAccess();
    for (const end of open.keys()) end({ closeConnection: true });
  });

  app.get(
    "/api/v1/events",
    { schema: { tags: ["events"], summary: "Live changes to the collection (text/event-stream)" } },
    async (request, reply) => {
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        // What the hooks set (security headers, the request id), as Fastify would send them.
        ...(Object.fromEntries(
          Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined),
        ) as OutgoingHttpHeaders),
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache, no-transform",
        // The stream is the whole life of the connection; when it ends the socket goes too, so
        // shutdown never waits for an idle keep-alive socket.
        connection: "close",
        "x-accel-buffering": "no",
      });
      const memberId = memberOf(request).user.id;
      const send = (event: DeliveredEvent) => {
        if (event.type === mediaProgressEventType) {
          // An upload in no memory yet is its uploader's alone, its progress too.
          if (event.audience !== null && event.audience !== memberId) return;
          raw.write(`id: ${event.eventId}\nevent: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`);
          return;
        }
        raw.write(`id: ${event.eventId}\nevent: ${event.type}\ndata: ${JSON.stringify(MemoryEventData.parse(event))}\n\n`);
      };
      raw.write("retry: 3000\n\n");

      const lastEventId = request.headers["last-event-id"];
      if (typeof lastEventId === "string" && lastEventId !== "") {
        const missed = bus.since(lastEventId);
        if (missed === null) raw.write(`event: ${resyncEventType}\ndata: {}\n\n`);
        else missed.forEach(send);
      }
      const unsubscribe = bus.subscribe(send);
      // The bus was cut from the database for a while: what happened meanwhile is not known here.
      const stopResync = bus.onResync(() => raw.write(`event: ${resyncEventType}\ndata: {}\n\n`));

      let recheck: NodeJS.Timeout | undefined;
      const end = (options: { closeConnection?: boolean } = {}) => {
        clearInterval(heartbeat);
        clearTimeout(recheck);
        unsubscribe();
        stopResync();
        open.delete(end);
        if (!raw.writableEnded) raw.end();
        // At shutdown a client that stopped reading must not hold the server open.
        if (options.closeConnection) request.raw.socket.destroy();
      };
      const check = (onAllowed?: () => void) => {
        authenticate(request).then(
          () => onAllowed?.(),
          (error: unknown) => {
            if (isOutOfReach(error)) {
              // The database does not answer (a restart): the stream stays, and carries nothing
              // until it does; the member is checked again shortly, not only on the next heartbeat.
              if (recheck === undefined && !raw.writableEnded)
                recheck = setTimeout(() => {
                  recheck = undefined;
                  check();
                }, recheckMs);
              return;
            }
            const code = sessionEndedCode(error);
            if (code !== undefined && !raw.writableEnded)
              raw.write(`event: ${sessionEndedEventType}\ndata: ${JSON.stringify({ code })}\n\n`);
            end();
          },
        );
      };
      const heartbeat = setInterval(() => check(() => raw.write(": ping\n\n")), heartbeatMs);
      open.set(end, () => check());
      raw.on("close", () => end());
    },
  );
};

/** How soon a member whose check found the database out of reach is checked again. */
const recheckMs = 2_000;

/** A check that failed because the database did not answer, not because of the member. */
function isOutOfReach(error: unknown): boolean {
  return classifyError(error).error.code === "service_unavailable";
}

/** The refusals that mean the session is over for good, as the product API's door answers them. */
const sessionEndedCodes = new Set(["session_not_found", "user_not_found", "user_banned", "email_not_invited"]);

/** The code of a refusal saying the session ended (not an expired token, nor a failed read), else undefined. */
function sessionEndedCode(error: unknown): string | undefined {
  return error instanceof AppError && sessionEndedCodes.has(error.code) ? error.code : undefined;
}
