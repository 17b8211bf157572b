import type { FastifyReply } from "fastify";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import type { AuthRateLimits } from "../../../config";
import { AppError } from "../../../errors";
import { oauthErrorByStatus, pkce, rateLimited, requestContext } from "../core/auth-wire";
import { RedirectQuery } from "../core/core.schemas";
import type { PkceFlowsService } from "../core/pkce-flows.service";
import type { SessionService } from "../core/session.service";
import { browserSecretOf } from "../core/signup-cookie";
import type { EmailLinksService } from "./email-links.service";
import type { EmailVerificationService, VerifyType } from "./email-verification.service";
import * as schemas from "./email.schemas";

export interface EmailRoutesOptions {
  emailLinks: EmailLinksService;
  emailVerification: EmailVerificationService;
  pkceFlows: PkceFlowsService;
  sessions: SessionService;
  /** Where a link may send someone: the requested address when allowed, else the site. */
  redirectTarget: (requested: string | undefined) => string;
  rateLimits: AuthRateLimits | false;
}

const verifyTypes = ["signup", "invite", "magiclink", "recovery", "email_change", "email"] as const;

/** E-mailed links and codes: `POST /otp`, `/verify` (both methods), `POST /recover` and `POST /resend`. */
export const emailRoutes: FastifyPluginAsyncZod<EmailRoutesOptions> = async (app, options) => {
  const { emailLinks, emailVerification, sessions } = options;
  const limit = (key: keyof AuthRateLimits) => rateLimited(options.rateLimits, key);

  app.post("/otp", { ...limit("email"), schema: { querystring: RedirectQuery, body: schemas.OtpBody } }, async (request) => {
    const { body } = request;
    if (body.email && body.phone)
      throw new AppError("validation_failed", { message: "Only an email address or phone number should be provided" });
    if (body.phone) throw new AppError("phone_provider_disabled");
    if (!body.email) throw new AppError("validation_failed", { message: "An email address or phone number is required" });
    await emailLinks.sendMagicLink(
      { email: body.email, createUser: body.create_user ?? true, data: body.data ?? {}, ...pkce(body) },
      request.query.redirect_to,
      requestContext(request),
    );
    return {};
  });

  app.post(
    "/verify",
    { ...limit("verify"), schema: { querystring: RedirectQuery, body: schemas.VerifyBody } },
    async (request) => {
      const { body } = request;
      // Phone codes are never sent here; Supabase Auth's answers for them, so clients see the same errors.
      if (body.type === "sms" || body.type === "phone_change") refusePhoneCode(body.phone);
      const type = verifyType(body.type);
      if (body.token && body.token_hash)
        throw new AppError("validation_failed", { message: "Only one of token or token_hash may be provided" });
      if (body.token_hash && (body.email || body.phone))
        throw new AppError("validation_failed", { message: "token_hash cannot be combined with email or phone" });
      if (!body.token_hash && !(body.email && body.token))
        throw new AppError("validation_failed", { message: "Verify requires an email and token, or a token_hash" });
      const verified = await emailVerification.verify(
        {
          ...(body.token_hash ? { type, tokenHash: body.token_hash } : { type, email: body.email!, code: body.token! }),
          browserSecret: browserSecretOf(request),
        },
        requestContext(request),
      );
      return sessions.start(verified.user, verified.amrMethod, requestContext(request));
    },
  );

  // The target of e-mailed links: signs in and redirects to the app with the session in the
  // fragment (or, for PKCE, an auth code in the query), or with the error in the fragment.
  app.get("/verify", { ...limit("verify"), schema: { querystring: schemas.VerifyQuery } }, async (request, reply) => {
    const { query } = request;
    const redirectTo = options.redirectTarget(query.redirect_to);
    try {
      const type = verifyType(query.type);
      if (!query.token) throw new AppError("otp_expired", { message: "Email link is invalid or has expired" });
      const verified = await emailVerification.verify(
        { type, tokenHash: query.token, browserSecret: browserSecretOf(request), issuesAuthCode: true },
        requestContext(request),
      );
      if (verified.flowStateId) {
        const code = await options.pkceFlows.issueAuthCode(verified.flowStateId);
        const target = new URL(redirectTo);
        target.searchParams.set("code", code);
        return reply.redirect(target.toString(), 303);
      }
      const session = await sessions.start(verified.user, verified.amrMethod, requestContext(request));
      const fragment = new URLSearchParams(
        Object.entries({
          access_token: session.access_token,
          expires_at: String(session.expires_at),
          expires_in: String(session.expires_in),
          refresh_token: session.refresh_token,
          sb: "",
          token_type: "bearer",
          type: verified.kind,
        }),
      );
      return reply.redirect(`${redirectTo.split("#")[0]}#${fragment.toString()}`, 303);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return redirectWithError(reply, redirectTo, error);
    }
  });

  app.post(
    "/recover",
    { ...limit("email"), schema: { querystring: RedirectQuery, body: schemas.RecoverBody } },
    async (request) => {
      if (!request.body.email) throw new AppError("validation_failed", { message: "Password recovery requires an email" });
      await emailLinks.sendRecovery({ email: request.body.email, ...pkce(request.body) }, request.query.redirect_to);
      return {};
    },
  );

  app.post(
    "/resend",
    { ...limit("email"), schema: { querystring: RedirectQuery, body: schemas.ResendBody } },
    async (request) => {
      const { body } = request;
      if (body.type !== "signup" && body.type !== "email_change") {
        if (body.type === "sms" || body.type === "phone_change") throw new AppError("phone_provider_disabled");
        throw new AppError("validation_failed", {
          message: "Missing one of these types: signup, email_change, sms, phone_change",
        });
      }
      if (!body.email) throw new AppError("validation_failed", { message: "An email address is required" });
      await emailLinks.resend({ type: body.type, email: body.email, ...pkce(body) }, request.query.redirect_to);
      return {};
    },
  );
};

/** A malformed number is 400 as Supabase Auth says it; any other phone code is unknown, so expired. */
function refusePhoneCode(phone: string | null | undefined): never {
  const digits = (phone ?? "").trim().replace(/^\+/, "");
  if (!/^[1-9]\d{1,14}$/.test(digits))
    throw new AppError("validation_failed", { message: "Invalid phone number format (E.164 required)" });
  throw new AppError("otp_expired");
}

function verifyType(type: string | undefined): VerifyType {
  if (type && (verifyTypes as readonly string[]).includes(type)) return type as VerifyType;
  throw new AppError("validation_failed", { message: `Verify requires a verification type (${verifyTypes.join(", ")})` });
}

function redirectWithError(reply: FastifyReply, redirectTo: string, error: AppError): FastifyReply {
  const params = new URLSearchParams({
    error: oauthErrorByStatus[error.statusCode] ?? "server_error",
    error_code: error.code,
    error_description: error.message,
    sb: "",
  });
  return reply.redirect(`${redirectTo.split("#")[0]}#${params.toString()}`, 303);
}
