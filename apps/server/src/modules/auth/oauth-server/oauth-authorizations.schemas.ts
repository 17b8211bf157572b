import { z } from "zod";

// The wire shapes of the authorization code flow (ADR 0075). Types and sizes only: the rules, with
// Supabase Auth's messages, are OauthAuthorizationsService's.

const text = z.string().max(4096).optional();

export const AuthorizeQuery = z.object({
  client_id: text,
  redirect_uri: text,
  response_type: text,
  scope: text,
  state: text,
  code_challenge: text,
  code_challenge_method: text,
});

export const AuthorizationParams = z.object({ id: z.string().min(1).max(256) });

export const ConsentBody = z.object({
  action: z.enum(["approve", "deny"], { message: "action must be 'approve' or 'deny'" }),
});

export const TokenBody = z
  .object({
    grant_type: text,
    code: text,
    redirect_uri: text,
    code_verifier: text,
    refresh_token: text,
    device_code: text,
    client_id: text,
    client_secret: text,
  })
  .partial();

export const GrantsQuery = z.object({ client_id: text });

/** RFC 8628 3.1: a device asks to be paired. */
export const DeviceAuthorizationBody = z.object({ client_id: text, client_secret: text, scope: text }).partial();
