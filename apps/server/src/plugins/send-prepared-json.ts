import { negotiate } from "@fastify/accept-negotiator";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { PreparedJson } from "../lib/prepared-json";

/** Smaller bodies are not worth a compressed variant. */
const minimumCompressedBytes = 1024;

/**
 * Sends JSON that was serialized with the route's schema already (Fastify sends a Buffer as it
 * is), gzipped when the client accepts it: a list page shrinks about four times, which matters
 * on a phone and is paid once per cached page, not per request.
 */
export async function sendPreparedJson(request: FastifyRequest, reply: FastifyReply, body: PreparedJson): Promise<FastifyReply> {
  reply.type("application/json; charset=utf-8").header("vary", "accept-encoding");
  const accepted = request.headers["accept-encoding"];
  if (body.bytes.length >= minimumCompressedBytes && accepted && negotiate(accepted, ["gzip"]) === "gzip") {
    return reply.header("content-encoding", "gzip").send(await body.gzip());
  }
  return reply.send(body.bytes);
}
