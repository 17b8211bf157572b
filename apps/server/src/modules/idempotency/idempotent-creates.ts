import type {
  FastifyReply,
  FastifyRequest,
  onResponseAsyncHookHandler,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from "fastify";
import type { IdempotencyService } from "./idempotency.service";

/** The answer's headers a replay carries too. */
const keptHeaders = ["content-type", "etag"] as const;

/** A keyed create under way: whose key, and whether its answer was dealt with. */
interface KeyedRequest {
  userId: string;
  key: string;
  settled: boolean;
}

/** The hooks a create route opts into with `...idempotentCreate` in its route options. */
export interface IdempotentCreateHooks {
  preHandler: preHandlerAsyncHookHandler;
  onSend: onSendAsyncHookHandler;
  onResponse: onResponseAsyncHookHandler;
}

/**
 * `Idempotency-Key` on a create route (ADR 0043). Before the handler, the member's key is claimed
 * (or its first answer sent again, or the request refused); when the answer goes out, a success is
 * kept for retries and anything else frees the key. Without the header the route runs as always.
 * `memberOf` names the signed-in member (the routes run behind the member door).
 */
export function idempotentCreates(
  service: IdempotencyService,
  memberOf: (request: FastifyRequest) => string,
): IdempotentCreateHooks {
  const keyed = new WeakMap<FastifyRequest, KeyedRequest>();

  const preHandler: preHandlerAsyncHookHandler = async function (request, reply) {
    const key = service.keyOf(request.headers["idempotency-key"]);
    if (key === undefined) return;
    const userId = memberOf(request);
    const path = request.url.split("?")[0] ?? request.url;
    const claim = await service.claim(userId, key, service.fingerprint(request.method, path, request.body));
    if (claim.kind === "replay") {
      return replay(reply, claim.answer.status, claim.answer.headers, claim.answer.body);
    }
    keyed.set(request, { userId, key, settled: false });
  };

  const onSend: onSendAsyncHookHandler = async function (request, reply, payload) {
    const state = keyed.get(request);
    if (!state || state.settled) return payload;
    state.settled = true;
    const body = typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : undefined;
    const headers: Record<string, string> = {};
    for (const name of keptHeaders) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    try {
      if (body === undefined) await service.release(state.userId, state.key);
      else await service.settle(state.userId, state.key, { status: reply.statusCode, headers, body });
    } catch (error) {
      // The create happened: its answer goes out whatever became of the key's record.
      request.log.warn({ err: error }, "could not record the answer of an idempotent create");
    }
    return payload;
  };

  const onResponse: onResponseAsyncHookHandler = async function (request) {
    const state = keyed.get(request);
    if (!state || state.settled) return;
    state.settled = true;
    await service.release(state.userId, state.key).catch((error: unknown) => {
      request.log.warn({ err: error }, "could not free the key of an unanswered create");
    });
  };

  return { preHandler, onSend, onResponse };
}

function replay(reply: FastifyReply, status: number, headers: Record<string, string>, body: string): FastifyReply {
  reply.status(status).headers(headers).header("idempotent-replayed", "true");
  return reply.send(Buffer.from(body, "utf8"));
}
