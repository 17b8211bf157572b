import type {
  FastifyReply,
  FastifyRequest,
  onResponseAsyncHookHandler,
  onSendAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from "fastify";
import type { BeforeCommit } from "../../db/before-commit";
import type { HeldKey } from "./idempotency.repository";
import type { IdempotencyService } from "./idempotency.service";

/** The answer's headers a replay carries too, when a route answered without `send`. */
const keptHeaders = ["content-type", "etag"] as const;
const jsonType = "application/json; charset=utf-8";

/** A keyed create under way: the key it holds, and whether its answer was dealt with. */
interface KeyedRequest {
  held: HeldKey;
  settled: boolean;
}

/** The hooks a create route opts into with `...idempotentCreate.hooks` in its route options. */
export interface IdempotentCreateHooks {
  preHandler: preHandlerAsyncHookHandler;
  onSend: onSendAsyncHookHandler;
  onResponse: onResponseAsyncHookHandler;
}

/** How a create route answers with what it made: its status, and the headers taken from it. */
export interface CreatedAnswer<T> {
  status: number;
  headers?: (made: T) => Record<string, string>;
}

/** `Idempotency-Key` on create routes (ADR 0043): the hooks, and the answer that is recorded with the create. */
export interface IdempotentCreate {
  hooks: IdempotentCreateHooks;
  /**
   * Runs a create and answers with what it made, as `answer` says (JSON through the route's
   * response schema). With a key, `create` is given the step its service runs inside the create's
   * transaction, before the commit, with what it made: the answer is serialized there and recorded
   * with the create, and exactly that body is sent. Without a key the step is undefined.
   */
  send<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    answer: CreatedAnswer<T>,
    create: (beforeCommit: BeforeCommit<T> | undefined) => Promise<T>,
  ): Promise<FastifyReply>;
}

/**
 * `Idempotency-Key` on a create route (ADR 0043). Before the handler, the member's key is claimed
 * (or its first answer sent again, or the request refused); the create records its answer in its
 * own transaction (`send`); any other answer frees the key. Without the header the route runs as
 * always. `memberOf` names the signed-in member (the routes run behind the member door).
 */
export function idempotentCreates(service: IdempotencyService, memberOf: (request: FastifyRequest) => string): IdempotentCreate {
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
    keyed.set(request, { held: claim.held, settled: false });
  };

  const onSend: onSendAsyncHookHandler = async function (request, reply, payload) {
    const state = keyed.get(request);
    if (!state || state.settled) return payload;
    state.settled = true;
    const body = typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : undefined;
    try {
      if (body !== undefined && reply.statusCode >= 200 && reply.statusCode < 300) {
        // A route that answered without `send`: kept, but in a write of its own after the commit.
        request.log.error("an idempotent create answered without recording its answer in its transaction");
        const headers: Record<string, string> = {};
        for (const name of keptHeaders) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        await service.answerAfter(state.held, { status: reply.statusCode, headers, body });
      } else {
        // Refused or failed: its transaction (if any) rolled back. An answer committed by a create
        // whose connection was lost right after its commit is kept: `release` leaves it.
        await service.release(state.held);
      }
    } catch (error) {
      request.log.warn({ err: error }, "could not settle the key of an idempotent create");
    }
    return payload;
  };

  const onResponse: onResponseAsyncHookHandler = async function (request) {
    const state = keyed.get(request);
    if (!state || state.settled) return;
    state.settled = true;
    await service.release(state.held).catch((error: unknown) => {
      request.log.warn({ err: error }, "could not free the key of an unanswered create");
    });
  };

  async function send<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    answer: CreatedAnswer<T>,
    create: (beforeCommit: BeforeCommit<T> | undefined) => Promise<T>,
  ): Promise<FastifyReply> {
    const state = keyed.get(request);
    let recorded: string | undefined;
    const beforeCommit: BeforeCommit<T> | undefined =
      state &&
      (async (trx, made) => {
        const body = serializerFor(reply, answer.status)(made);
        await service.answerWithin(trx, state.held, {
          status: answer.status,
          headers: { "content-type": jsonType, ...answer.headers?.(made) },
          body,
        });
        recorded = body;
      });
    const made = await create(beforeCommit);
    reply
      .status(answer.status)
      .type(jsonType)
      .headers(answer.headers?.(made) ?? {});
    if (state === undefined || recorded === undefined) return reply.send(made);
    // Committed with the create: the answer that goes out is the one a retry gets.
    state.settled = true;
    return reply.send(recorded);
  }

  return { hooks: { preHandler, onSend, onResponse }, send };
}

/** The route's serializer for a status (its response schema), as Fastify would use to send. */
function serializerFor(reply: FastifyReply, status: number): (payload: unknown) => string {
  const serialize = reply.getSerializationFunction(String(status)) as ((payload: unknown) => string) | undefined;
  return serialize ?? ((payload) => JSON.stringify(payload));
}

function replay(reply: FastifyReply, status: number, headers: Record<string, string>, body: string): FastifyReply {
  reply.status(status).headers(headers).header("idempotent-replayed", "true");
  return reply.send(Buffer.from(body, "utf8"));
}
