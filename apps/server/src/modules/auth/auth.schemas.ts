import { z } from "zod";

/**
 * Request shapes of the auth API. auth-js sends extra and null fields freely (`gotrue_meta_security`,
 * `code_challenge: null`, its whole options object), so unknown keys are ignored and null counts
 * as absent, as in Supabase Auth.
 */
const text = z
  .string()
  .nullish()
  .transform((value) => value ?? undefined);
/**
 * Metadata is stored as JSON and copied into every access token, so it stays shallow and small:
 * JSON nested thousands deep overflows the stack of JSON.stringify and of jose's structuredClone,
 * and an account that held it could never sign in again.
 */
const maxMetadataDepth = 16;
const maxMetadataBytes = 16 * 1024;
const metadata = z
  .record(z.string(), z.unknown())
  .refine((value) => withinDepth(value, maxMetadataDepth) && JSON.stringify(value).length <= maxMetadataBytes, {
    message: `must be JSON of at most ${maxMetadataBytes} bytes, nested at most ${maxMetadataDepth} levels deep`,
  })
  .nullish()
  .transform((value) => value ?? undefined);

/** Iterative, so a hostile depth cannot overflow the check itself. */
function withinDepth(value: unknown, maxDepth: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (item === null || typeof item !== "object") continue;
    if (depth > maxDepth) return false;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return true;
}

const pkceFields = {
  code_challenge: text,
  code_challenge_method: text,
};

export const RedirectQuery = z.looseObject({ redirect_to: text });

export const SignUpBody = z.looseObject({ email: text, phone: text, password: text, data: metadata, ...pkceFields });
// A missing grant_type is an unsupported one (invalid_credentials), as in Supabase Auth, not a validation error.
export const TokenQuery = z.looseObject({ grant_type: text });
export const PasswordGrantBody = z.looseObject({ email: text, phone: text, password: text });
export const RefreshGrantBody = z.looseObject({ refresh_token: text });
export const PkceGrantBody = z.looseObject({ auth_code: text, code_verifier: text });
export const IdTokenGrantBody = z.looseObject({
  provider: text,
  id_token: text,
  access_token: text,
  nonce: text,
  link_identity: z.boolean().nullish(),
});
/** `POST /token?grant_type=web3`, as auth-js `signInWithWeb3` sends it; `link_identity` connects the wallet instead. */
export const Web3GrantBody = z.looseObject({
  chain: text,
  // Their types are checked after the chain is known to be on, as Supabase Auth does: a client of a
  // server with wallets off is told so, whatever it sent.
  message: z.unknown(),
  signature: z.unknown(),
  link_identity: z.boolean().nullish(),
});
/** `GET /authorize` and `GET /user/identities/authorize`, as auth-js builds them (scopes are the operator's). */
export const AuthorizeQuery = z.looseObject({ provider: text, redirect_to: text, skip_http_redirect: text, ...pkceFields });
export const SsoBody = z.looseObject({
  domain: text,
  provider_id: text,
  redirect_to: text,
  skip_http_redirect: z
    .boolean()
    .nullish()
    .transform((value) => value ?? undefined),
  ...pkceFields,
});
/** What an identity provider posts to the assertion consumer (HTML form fields). */
export const AssertionForm = z.looseObject({ SAMLResponse: text, RelayState: text });
export const CallbackQuery = z.looseObject({ state: text, code: text, error: text, error_description: text });
export const IdentityParams = z.object({ id: z.string().max(100) });
export const LogoutQuery = z.looseObject({ scope: text });
export const UpdateUserBody = z.looseObject({
  email: text,
  phone: text,
  password: text,
  nonce: text,
  data: metadata,
  app_metadata: metadata,
  ...pkceFields,
});
export const OtpBody = z.looseObject({
  email: text,
  phone: text,
  data: metadata,
  create_user: z.boolean().nullish(),
  ...pkceFields,
});
export const VerifyBody = z.looseObject({ type: text, email: text, phone: text, token: text, token_hash: text });
export const VerifyQuery = z.looseObject({ token: text, type: text, redirect_to: text });
export const RecoverBody = z.looseObject({ email: text, ...pkceFields });
export const ResendBody = z.looseObject({ type: text, email: text, phone: text, ...pkceFields });

/** `POST /factors`: what auth-js sends to enrol (extra keys, such as `phone`, are ignored). */
export const EnrollFactorBody = z.object({
  factor_type: z.string(),
  friendly_name: z.string().max(255).optional(),
  issuer: z.string().max(255).optional(),
});

/**
 * The relying party a WebAuthn factor's client names (auth-js sends the page's own); Memory Box
 * uses its configured one and refuses a request naming another (ADR 0025).
 */
const WebauthnRelyingParty = {
  rpId: z.string().max(255).optional(),
  rpOrigins: z.array(z.string().max(2048)).max(20).optional(),
};

/** `POST /factors/:id/challenge`: a WebAuthn factor's body names its relying party. */
export const ChallengeFactorBody = z
  .looseObject({ webauthn: z.looseObject(WebauthnRelyingParty).optional() })
  .nullish()
  .transform((body) => body ?? {});

/** `POST /factors/:id/verify`: a code for a TOTP factor, the authenticator's answer for a WebAuthn one. */
export const VerifyFactorBody = z.object({
  challenge_id: z.string().max(100),
  code: z.string().max(100).default(""),
  webauthn: z
    .looseObject({
      type: z.enum(["create", "request"]),
      credential_response: z.unknown(),
      ...WebauthnRelyingParty,
    })
    .optional(),
});

/** `POST /passkeys/registration/verify` and `/passkeys/authentication/verify`. */
export const PasskeyCeremonyBody = z.object({
  challenge_id: z.string().max(100),
  credential: z.unknown(),
});

export const PasskeyParams = z.object({ id: z.string().max(100) });
export const UpdatePasskeyBody = z.object({ friendly_name: z.string().max(1000) });

export const FactorParams = z.object({ id: z.string().max(100) });
