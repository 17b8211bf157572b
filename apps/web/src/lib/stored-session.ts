/**
 * The session as auth-js persists it, read without auth-js: the first screen's script reads it
 * before the app's bundle has arrived. Only what that script needs; auth-js stays the owner.
 */

/** localStorage key of the persisted session. */
export const authStorageKey = "memory-box-auth";

/**
 * auth-js refreshes a token whose expiry is three of its 30 s ticks away or closer; such a token
 * is left to it rather than spent on a request that may outlive it.
 */
const refreshMarginSeconds = 90;

export interface StoredUser {
  email?: string;
  user_metadata?: Record<string, unknown>;
  factors?: Array<{ status: string }>;
}

export interface StoredSession {
  access_token: string;
  user: StoredUser;
}

/** The access token's `aal` claim; the token is the server's, so it is read, not verified, here. */
function assuranceOf(accessToken: string): string | undefined {
  try {
    const payload = accessToken.split(".")[1] ?? "";
    const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/"))) as { aal?: unknown };
    return typeof claims.aal === "string" ? claims.aal : undefined;
  } catch {
    return undefined;
  }
}

/** As auth-js's `getAuthenticatorAssuranceLevel`: a verified factor makes aal2 the next level. */
export function needsSecondFactor(session: StoredSession | null): boolean {
  if (!session?.user.factors?.some((factor) => factor.status === "verified")) return false;
  return assuranceOf(session.access_token) !== "aal2";
}

/**
 * The stored session when it can be used as it is: present, well-formed, its access token not
 * about to expire, and not waiting for a second factor (the server would refuse it). Anything
 * else is null, and auth-js decides what happens (refresh, sign-in screen, code step).
 */
export function usableStoredSession(storage: Pick<Storage, "getItem">, nowSeconds: number): StoredSession | null {
  let stored: unknown;
  try {
    const text = storage.getItem(authStorageKey);
    stored = text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof stored !== "object" || stored === null) return null;
  const { access_token, expires_at, user } = stored as Record<string, unknown>;
  if (typeof access_token !== "string" || access_token === "") return null;
  if (typeof expires_at !== "number" || expires_at - nowSeconds <= refreshMarginSeconds) return null;
  if (typeof user !== "object" || user === null) return null;
  const session: StoredSession = { access_token, user };
  return needsSecondFactor(session) ? null : session;
}
