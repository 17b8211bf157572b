import type { FastifyReply } from "fastify";
import type { ErrorCode } from "@memory-box/contract";
import { AppError } from "../../../errors";
import type { PkceChallenge } from "../core/emailed-tokens.service";
import type { CallbackOutcome } from "./identities.service";

/**
 * Wire pieces the auth routes and the single sign-on routes share: the client's PKCE challenge,
 * and where a sign-in at a provider (OpenID Connect or SAML) sends the browser at its end.
 */

export function pkce(body: { code_challenge?: string | undefined; code_challenge_method?: string | undefined }): {
  pkce?: PkceChallenge;
} {
  const { code_challenge: challenge, code_challenge_method: method } = body;
  if (!challenge && !method) return {};
  if (!challenge || !method)
    throw new AppError("validation_failed", { message: "PKCE flow requires code_challenge_method and code_challenge" });
  if (!/^(s256|plain)$/i.test(method))
    throw new AppError("validation_failed", { message: "code challenge method not supported" });
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(challenge))
    throw new AppError("validation_failed", { message: "code challenge does not match previously saved code verifier" });
  return { pkce: { codeChallenge: challenge, codeChallengeMethod: method.toLowerCase() } };
}

export const oauthErrorByStatus: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized_client",
  403: "access_denied",
  500: "server_error",
  503: "temporarily_unavailable",
};

/** Refusals Supabase Auth names `access_denied` in a provider callback's error redirect, whatever their status. */
const accessDenied = new Set<ErrorCode>([
  "email_not_invited",
  "user_banned",
  "signup_disabled",
  "provider_email_needs_verification",
]);

/**
 * Where the provider's callback sends the browser, as Supabase Auth does: the session in the
 * fragment (implicit flow), `?code=` (PKCE flow), or the error in both query and fragment.
 */
export function redirectAfterCallback(reply: FastifyReply, outcome: CallbackOutcome): FastifyReply {
  const target = new URL(outcome.redirectTo);
  if ("code" in outcome) {
    target.searchParams.set("code", outcome.code);
    return reply.redirect(target.toString(), 302);
  }
  if ("session" in outcome) {
    const { session } = outcome;
    target.hash = new URLSearchParams({
      access_token: session.access_token,
      expires_at: String(session.expires_at),
      expires_in: String(session.expires_in),
      refresh_token: session.refresh_token,
      token_type: "bearer",
      sb: "",
    }).toString();
    return reply.redirect(target.toString(), 302);
  }
  const { error } = outcome;
  const fields: Record<string, string> =
    error instanceof AppError
      ? {
          error: accessDenied.has(error.code) ? "access_denied" : (oauthErrorByStatus[error.statusCode] ?? "server_error"),
          error_code: error.code,
          error_description: error.message,
        }
      : { error: error.error, error_description: error.description };
  for (const [name, value] of Object.entries(fields)) target.searchParams.set(name, value);
  target.hash = new URLSearchParams({ ...fields, sb: "" }).toString();
  return reply.redirect(target.toString(), 302);
}
