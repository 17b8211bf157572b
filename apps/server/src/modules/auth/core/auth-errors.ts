import type { FastifyInstance } from "fastify";
import { AppError } from "../../../errors";
import { answerErrorsWith, renderAuthError } from "../../../plugins/error-handler";

/** Errors under /auth/v1 in Supabase Auth's envelope, whose codes and statuses auth-js switches on. */
export function registerAuthErrorHandling(app: FastifyInstance): void {
  answerErrorsWith(app, renderAuthError);
  acceptEmptyJsonBodies(app);
}

/** Unknown paths under /auth/v1, in the same envelope. Fastify allows one such handler per prefix. */
export function registerAuthNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => renderAuthError(request, reply, new AppError("not_found")));
}

/**
 * auth-js sends `Content-Type: application/json` on every POST, even with no body (logout).
 * An empty body therefore means `{}` here, where Fastify would refuse it.
 */
function acceptEmptyJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string", bodyLimit: 1024 * 1024 }, (_request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new AppError("bad_json"), undefined);
    }
  });
}
