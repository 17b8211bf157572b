import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { AppError } from "../../../errors";
import { requestContext } from "../core/auth-wire";
import type { SessionService } from "../core/session.service";
import * as schemas from "./identities.schemas";
import type { IdentitiesService } from "./identities.service";

export interface IdentitiesRoutesOptions {
  identities: IdentitiesService;
  sessions: SessionService;
  /** Whether anything can be linked: an OpenID Connect provider or wallets are configured. */
  linkingEnabled: boolean;
}

/** Outside accounts linked to a member (ADR 0034, 0035): `DELETE /user/identities/:id`. */
export const identitiesRoutes: FastifyPluginAsyncZod<IdentitiesRoutesOptions> = async (app, options) => {
  const { identities, sessions } = options;
  app.delete("/user/identities/:id", { schema: { params: schemas.IdentityParams } }, async (request) => {
    // Without a provider or wallets there is nothing to link: the answer Supabase Auth gives when linking is off.
    if (!options.linkingEnabled) throw new AppError("manual_linking_disabled");
    await identities.unlink(
      await sessions.authenticate(request.headers.authorization),
      request.params.id,
      requestContext(request),
    );
    return {};
  });
};
