import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AuthRateLimits } from "../../../config";
import { AppError } from "../../../errors";
import { pkce, rateLimited, requestContext } from "../core/auth-wire";
import { RedirectQuery } from "../core/core.schemas";
import type { SessionService } from "../core/session.service";
import type { AccountUpdatesService } from "./account-updates.service";
import * as schemas from "./account.schemas";

export interface AccountRoutesOptions {
  accountUpdates: AccountUpdatesService;
  sessions: SessionService;
  rateLimits: AuthRateLimits | false;
}

/** A signed-in member's changes to their own account: `PUT /user` and `GET /reauthenticate`. */
export const accountRoutes: FastifyPluginAsyncZod<AccountRoutesOptions> = async (app, options) => {
  const { accountUpdates, sessions } = options;
  const limit = rateLimited(options.rateLimits, "email");

  app.put("/user", { ...limit, schema: { querystring: RedirectQuery, body: schemas.UpdateUserBody } }, async (request) => {
    const who = await sessions.authenticate(request.headers.authorization);
    const { body } = request;
    if (body.app_metadata) throw new AppError("not_admin", { message: "Updating app_metadata requires admin privileges" });
    if (body.phone) throw new AppError("phone_provider_disabled");
    return accountUpdates.updateUser(
      who,
      {
        ...(body.email !== undefined ? { email: body.email } : {}),
        ...(body.password !== undefined ? { password: body.password } : {}),
        ...(body.nonce ? { nonce: body.nonce } : {}),
        ...(body.data ? { data: body.data } : {}),
        ...pkce(body),
      },
      request.query.redirect_to,
      requestContext(request),
    );
  });

  app.get("/reauthenticate", { ...limit }, async (request) => {
    await accountUpdates.reauthenticate(await sessions.authenticate(request.headers.authorization));
    return {};
  });
};
