import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AuthRateLimits } from "../../../config";
import { rateLimited, requestContext } from "../core/auth-wire";
import type { SessionService } from "../core/session.service";
import * as schemas from "./factors.schemas";
import type { FactorsService } from "./factors.service";

export interface FactorsRoutesOptions {
  factors: FactorsService;
  sessions: SessionService;
  rateLimits: AuthRateLimits | false;
}

/** Second factors (ADR 0022): enrolling, challenging, verifying and removing them. */
export const factorsRoutes: FastifyPluginAsyncZod<FactorsRoutesOptions> = async (app, options) => {
  const { factors, sessions } = options;
  const limit = rateLimited(options.rateLimits, "verify");
  const caller = (authorization: string | undefined) => sessions.authenticate(authorization);

  app.post("/factors", { ...limit, schema: { body: schemas.EnrollFactorBody } }, async (request) =>
    factors.enroll(await caller(request.headers.authorization), request.body),
  );
  app.post(
    "/factors/:id/challenge",
    { ...limit, schema: { params: schemas.FactorParams, body: schemas.ChallengeFactorBody } },
    async (request) =>
      factors.challenge(await caller(request.headers.authorization), request.params.id, request.body, requestContext(request)),
  );
  app.post(
    "/factors/:id/verify",
    { ...limit, schema: { params: schemas.FactorParams, body: schemas.VerifyFactorBody } },
    async (request) =>
      factors.verify(await caller(request.headers.authorization), request.params.id, request.body, requestContext(request)),
  );
  app.delete("/factors/:id", { schema: { params: schemas.FactorParams } }, async (request) =>
    factors.unenroll(await caller(request.headers.authorization), request.params.id),
  );
};
