import type { FastifyReply } from "fastify";
import type { ErrorCode } from "@memory-box/contract";
import { AppError } from "../../../errors";
import { oauthErrorByStatus } from "../core/auth-wire";
import type { CallbackOutcome } from "./identities.service";

/** Where a sign-in at a provider (OpenID Connect or SAML) sends the browser at its end. */

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
