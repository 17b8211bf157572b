import type { FastifyInstance } from "fastify";

/** How long requests under way may take to finish once the server is told to stop (issue #37). */
export const stopGraceMs = 10_000;

/**
 * Stops the server as an operator's SIGTERM asks: no new request is taken (Fastify answers `503`
 * to one that arrives on an open connection, and the listening socket closes), the requests under
 * way — uploads included — finish, the live streams end, background work stops and the database
 * closes. What is still running after `graceMs` has its connection cut, so a stalled client cannot
 * hold the stop; an upload cut so leaves nothing behind (it is written to a temporary file and
 * only then committed). Resolves once everything is closed.
 */
export async function stopGracefully(app: FastifyInstance, graceMs = stopGraceMs): Promise<void> {
  const deadline = setTimeout(() => {
    app.log.warn({ graceMs }, "requests still running when the stop's grace ran out: their connections are cut");
    app.server.closeAllConnections();
  }, graceMs);
  deadline.unref();
  try {
    await app.close();
  } finally {
    clearTimeout(deadline);
  }
}
