import { z } from "zod";

/**
 * Request shapes of the auth API, and the field shapes every flow's schemas use. auth-js sends
 * extra and null fields freely (`gotrue_meta_security`, `code_challenge: null`, its whole options
 * object), so unknown keys are ignored and null counts as absent, as in Supabase Auth.
 */
export const text = z
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
export const metadata = z
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

export const pkceFields = {
  code_challenge: text,
  code_challenge_method: text,
};

export const RedirectQuery = z.looseObject({ redirect_to: text });

// A missing grant_type is an unsupported one (invalid_credentials), as in Supabase Auth, not a validation error.
export const TokenQuery = z.looseObject({ grant_type: text });
export const RefreshGrantBody = z.looseObject({ refresh_token: text });
export const PkceGrantBody = z.looseObject({ auth_code: text, code_verifier: text });
export const LogoutQuery = z.looseObject({ scope: text });
