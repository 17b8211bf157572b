import { DEVICE_CODE_GRANT_TYPE, DeviceAuthorization, FRAME_CLIENT_ID, FRAME_SCOPE } from "@memory-box/contract";

/**
 * The frame's own credential (ADR 0076): the session the device grant gave it, kept under a key of
 * its own in this browser's storage, never the member's auth-js session (a frame is not a member).
 * Its requests carry its access token; the token is refreshed before it expires, and a refresh
 * token is used once (the server rotates it and ends a session whose old one comes back).
 */

export const frameSessionKey = "memory-box-frame-session";
const tokenPath = "/auth/v1/oauth/token";
const deviceAuthorizationPath = "/auth/v1/oauth/device_authorization";
/** Refreshed when it has less than this left. */
const refreshMarginSeconds = 60;

export interface FrameTokens {
  access_token: string;
  refresh_token: string;
  /** Seconds since 1970. */
  expires_at: number;
}

/** The server no longer knows this frame (removed in Settings): its tokens and cache are gone, pairing starts again. */
export class FrameRemovedError extends Error {
  constructor() {
    super("This frame was removed.");
    this.name = "FrameRemovedError";
  }
}

/** The server could not be reached, or answered with an outage: the frame keeps showing what it kept. */
export class FrameOfflineError extends Error {
  constructor(options?: ErrorOptions) {
    super("The server could not be reached.", options);
    this.name = "FrameOfflineError";
  }
}

export function storedFrameTokens(storage: Storage = window.localStorage): FrameTokens | null {
  try {
    const value = JSON.parse(storage.getItem(frameSessionKey) ?? "null") as Partial<FrameTokens> | null;
    if (
      typeof value?.access_token === "string" &&
      typeof value.refresh_token === "string" &&
      typeof value.expires_at === "number"
    )
      return value as FrameTokens;
  } catch {
    // Unreadable: as if never paired.
  }
  return null;
}

export function storeFrameTokens(tokens: FrameTokens | null, storage: Storage = window.localStorage): void {
  try {
    if (tokens) storage.setItem(frameSessionKey, JSON.stringify(tokens));
    else storage.removeItem(frameSessionKey);
  } catch {
    // Not kept: the frame stays paired until the page is reloaded.
  }
}

/** A token endpoint's answer: a session, or an OAuth error (RFC 6749 §5.2, RFC 8628 §3.5). */
type TokenAnswer = { kind: "tokens"; tokens: FrameTokens } | { kind: "error"; error: string; status: number };

function tokensOf(body: Record<string, unknown>, now: number): FrameTokens {
  const expiresAt =
    typeof body.expires_at === "number" ? body.expires_at : Math.floor(now / 1000) + (Number(body.expires_in) || 3600);
  return { access_token: String(body.access_token), refresh_token: String(body.refresh_token), expires_at: expiresAt };
}

async function postForm(path: string, form: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  try {
    return await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
      body: new URLSearchParams(form).toString(),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new FrameOfflineError({ cause: error });
  }
}

async function tokenRequest(form: Record<string, string>, signal?: AbortSignal): Promise<TokenAnswer> {
  const response = await postForm(tokenPath, form, signal);
  const body = ((await response.json().catch(() => ({}))) ?? {}) as Record<string, unknown>;
  if (response.ok && typeof body.access_token === "string") return { kind: "tokens", tokens: tokensOf(body, Date.now()) };
  if (response.status >= 500 || response.status === 429) throw new FrameOfflineError();
  const error = [body.error, body.error_code, body.code].find((value): value is string => typeof value === "string");
  return { kind: "error", error: error ?? "invalid_request", status: response.status };
}

/** `POST /auth/v1/oauth/device_authorization`: a new user code for this frame to show. */
export async function requestDeviceCode(signal?: AbortSignal): Promise<DeviceAuthorization> {
  const response = await postForm(deviceAuthorizationPath, { client_id: FRAME_CLIENT_ID, scope: FRAME_SCOPE }, signal);
  if (!response.ok) throw new FrameOfflineError();
  return DeviceAuthorization.parse(await response.json());
}

/** What one poll of the token endpoint says about a pairing (RFC 8628 §3.5). */
export type PollAnswer =
  | { kind: "approved"; tokens: FrameTokens }
  | { kind: "pending" }
  | { kind: "slow_down" }
  | { kind: "denied" }
  | { kind: "expired" };

export async function pollDeviceToken(deviceCode: string, signal?: AbortSignal): Promise<PollAnswer> {
  const answer = await tokenRequest(
    { grant_type: DEVICE_CODE_GRANT_TYPE, device_code: deviceCode, client_id: FRAME_CLIENT_ID },
    signal,
  );
  if (answer.kind === "tokens") return { kind: "approved", tokens: answer.tokens };
  if (answer.error === "authorization_pending") return { kind: "pending" };
  if (answer.error === "slow_down") return { kind: "slow_down" };
  if (answer.error === "access_denied") return { kind: "denied" };
  // expired_token, and a code the server no longer knows (invalid_grant): a new code either way.
  return { kind: "expired" };
}

let refreshing: Promise<FrameTokens> | undefined;

/**
 * Exchanges the refresh token for a new session, once at a time (two at once would use one
 * refresh token twice, which ends the session). A refusal means the frame was removed.
 */
function refreshTokens(tokens: FrameTokens): Promise<FrameTokens> {
  refreshing ??= (async () => {
    try {
      const answer = await tokenRequest({
        grant_type: "refresh_token",
        refresh_token: tokens.refresh_token,
        client_id: FRAME_CLIENT_ID,
      });
      if (answer.kind === "error") {
        forgetFrame();
        throw new FrameRemovedError();
      }
      storeFrameTokens(answer.tokens);
      return answer.tokens;
    } finally {
      refreshing = undefined;
    }
  })();
  return refreshing;
}

/** The frame's tokens, refreshed first when they are about to expire; FrameRemovedError when there are none. */
async function freshTokens(): Promise<FrameTokens> {
  const tokens = storedFrameTokens();
  if (!tokens) throw new FrameRemovedError();
  if (tokens.expires_at - Date.now() / 1000 > refreshMarginSeconds) return tokens;
  return refreshTokens(tokens);
}

/** Things the frame keeps besides its tokens (the slides list, the photos' cache), forgotten with it. */
const forgetters = new Set<() => void>();
export function onFrameForgotten(forget: () => void): () => void {
  forgetters.add(forget);
  return () => forgetters.delete(forget);
}

/** Forgets the frame's session and everything it kept: the next screen is pairing. */
export function forgetFrame(): void {
  storeFrameTokens(null);
  for (const forget of forgetters) forget();
}

/**
 * A GET of the frame's API (`/api/v1/frame/*`) with its bearer token. A 401 tries one refresh (an
 * access token that expired while the device slept) and then means the frame was removed
 * (FrameRemovedError, everything forgotten); no answer, or a 5xx, is FrameOfflineError.
 */
export async function frameFetch(path: string, signal?: AbortSignal): Promise<Response> {
  let tokens = await freshTokens();
  for (let attempt = 0; ; attempt += 1) {
    let response: Response;
    try {
      response = await fetch(path, { headers: { Authorization: `Bearer ${tokens.access_token}` }, signal });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new FrameOfflineError({ cause: error });
    }
    if (response.status === 401) {
      if (attempt === 0) {
        tokens = await refreshTokens(tokens);
        continue;
      }
      forgetFrame();
      throw new FrameRemovedError();
    }
    if (response.status >= 500 || response.status === 429) throw new FrameOfflineError();
    return response;
  }
}
