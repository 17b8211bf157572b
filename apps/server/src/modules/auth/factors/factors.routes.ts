import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AuthRateLimits } from "../../../config";
import { rateLimited, requestContext } from "../core/auth-wire";
import type { SessionService } from "../core/session.service";
import * as schemas from "./factors.schemas";
import type { FactorsService } from "./factors.service";
import type { RecoveryCodesService } from "./recovery-codes.service";

export interface FactorsRoutesOptions {
  factors: FactorsService;
  recoveryCodes: RecoveryCodesService;
  sessions: SessionService;
  rateLimits: AuthRateLimits | false;
}

/**
 * Second factors (ADR 0022): enrolling, challenging, verifying and removing them; and recovery
 * codes (ADR 0042), Memory Box's own, under `/factors/recovery-codes` (a factor's id is a UUID, so
 * the path never names a factor; the router prefers the fixed segment).
 */
export const factorsRoutes: FastifyPluginAsyncZod<FactorsRoutesOptions> = async (app, options) => {
  const { factors, recoveryCodes, sessions } = options;
  const limit = rateLimited(options.rateLimits, "verify");
  const caller = (authorization: string | undefined) => sessions.authenticate(authorization);

  app.get("/factors/recovery-codes", async (request) => recoveryCodes.status(await caller(request.headers.authorization)));
  app.post("/factors/recovery-codes", { ...limit }, async (request) =>
    recoveryCodes.generate(await caller(request.headers.authorization)),
  );
  app.post("/factors/recovery-codes/verify", { ...limit, schema: { body: schemas.RecoveryCodeBody } }, async (request) =>
    recoveryCodes.verify(await caller(request.headers.authorization), request.body, requestContext(request)),
  );
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
