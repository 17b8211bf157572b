import { z } from "zod";

/**
 * Request shapes of the auth API. auth-js sends extra and null fields freely (`gotrue_meta_security`,
 * `code_challenge: null`, its whole options object), so unknown keys are ignored and null counts
 * as absent, as in Supabase Auth.
 */
const text = z.string().nullish().transform((value) => value ?? undefined);
const metadata = z.record(z.string(), z.unknown()).nullish().transform((value) => value ?? undefined);

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
export const LogoutQuery = z.looseObject({ scope: text });
export const UpdateUserBody = z.looseObject({ email: text, phone: text, password: text, nonce: text, data: metadata, app_metadata: metadata, ...pkceFields });
export const OtpBody = z.looseObject({ email: text, phone: text, data: metadata, create_user: z.boolean().nullish(), ...pkceFields });
export const VerifyBody = z.looseObject({ type: text, email: text, phone: text, token: text, token_hash: text });
export const VerifyQuery = z.looseObject({ token: text, type: text, redirect_to: text });
export const RecoverBody = z.looseObject({ email: text, ...pkceFields });
export const ResendBody = z.looseObject({ type: text, email: text, phone: text, ...pkceFields });
