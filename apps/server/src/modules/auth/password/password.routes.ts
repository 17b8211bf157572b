import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AuthRateLimits } from "../../../config";
import { AppError } from "../../../errors";
import { pkce, rateLimited, requestContext, type TokenGrants } from "../core/auth-wire";
import { RedirectQuery } from "../core/core.schemas";
import { signupCookieHeader } from "../core/signup-cookie";
import type { PasswordSignInService } from "./password-sign-in.service";
import * as schemas from "./password.schemas";
import type { SignUpService } from "./sign-up.service";

export interface PasswordRoutesOptions {
  signUp: SignUpService;
  passwordSignIn: PasswordSignInService;
  grants: TokenGrants;
  rateLimits: AuthRateLimits | false;
  /** Whether members reach us over https: the sign-up cookie is then Secure. */
  secureCookies: boolean;
  /** How long a sign-up's cookie lives: as long as its confirmation link. */
  signupCookieSeconds: number;
}

/** `POST /signup` and `POST /token?grant_type=password`. */
export const passwordRoutes: FastifyPluginAsyncZod<PasswordRoutesOptions> = async (app, options) => {
  const { signUp, passwordSignIn } = options;

  app.post(
    "/signup",
    { ...rateLimited(options.rateLimits, "email"), schema: { querystring: RedirectQuery, body: schemas.SignUpBody } },
    async (request, reply) => {
      const { body } = request;
      if (body.phone) throw new AppError("phone_provider_disabled", { message: "Phone signups are disabled" });
      // Neither an address nor a phone: Supabase Auth's anonymous sign-in (ADR 0072).
      if (!body.email) return signUp.signInAnonymously(body.data ?? {}, requestContext(request));
      const result = await signUp.signUp(
        { email: body.email, password: body.password ?? "", data: body.data ?? {}, ...pkce(body) },
        request.query.redirect_to,
        requestContext(request),
      );
      if (result.browserSecret)
        reply.header("set-cookie", signupCookieHeader(result.browserSecret, options.signupCookieSeconds, options.secureCookies));
      return result.body;
    },
  );

  options.grants.set("password", async (request) => {
    const body = schemas.PasswordGrantBody.parse(request.body ?? {});
    if (body.email && body.phone)
      throw new AppError("validation_failed", {
        message: "Only an email address or phone number should be provided on login.",
      });
    if (body.phone) throw new AppError("phone_provider_disabled");
    if (!body.email) throw new AppError("validation_failed", { message: "missing email or phone" });
    return passwordSignIn.signIn({ email: body.email, password: body.password ?? "" }, requestContext(request));
  });
};
