import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AuthRateLimits } from "../../../config";
import { rateLimited, requestContext } from "../core/auth-wire";
import type { SessionService } from "../core/session.service";
import * as schemas from "./passkeys.schemas";
import type { PasskeysService } from "./passkeys.service";

export interface PasskeysRoutesOptions {
  passkeys: PasskeysService;
  sessions: SessionService;
  rateLimits: AuthRateLimits | false;
}

/** Passkeys (ADR 0025), on the routes of Supabase Auth's passkey API. */
export const passkeysRoutes: FastifyPluginAsyncZod<PasskeysRoutesOptions> = async (app, options) => {
  const { passkeys, sessions } = options;
  const limit = (key: keyof AuthRateLimits) => rateLimited(options.rateLimits, key);
  const caller = (authorization: string | undefined) => sessions.authenticate(authorization);

  app.post("/passkeys/registration/options", { ...limit("verify") }, async (request) =>
    passkeys.registrationOptions(await caller(request.headers.authorization)),
  );
  app.post(
    "/passkeys/registration/verify",
    { ...limit("verify"), schema: { body: schemas.PasskeyCeremonyBody } },
    async (request) =>
      passkeys.verifyRegistration(await caller(request.headers.authorization), request.body, requestContext(request)),
  );
  app.post("/passkeys/authentication/options", { ...limit("token") }, async () => passkeys.authenticationOptions());
  app.post(
    "/passkeys/authentication/verify",
    { ...limit("token"), schema: { body: schemas.PasskeyCeremonyBody } },
    async (request) => passkeys.verifyAuthentication(request.body, requestContext(request)),
  );
  app.get("/passkeys", async (request) => passkeys.list(await caller(request.headers.authorization)));
  app.patch("/passkeys/:id", { schema: { params: schemas.PasskeyParams, body: schemas.UpdatePasskeyBody } }, async (request) =>
    passkeys.rename(await caller(request.headers.authorization), request.params.id, request.body.friendly_name),
  );
  app.delete("/passkeys/:id", { schema: { params: schemas.PasskeyParams } }, async (request, reply) => {
    await passkeys.remove(await caller(request.headers.authorization), request.params.id);
    return reply.code(204).send();
  });
};
