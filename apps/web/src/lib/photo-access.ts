import { useEffect } from "react";
import type { PhotoAccessGrant } from "@memory-box/contract";

import { getAuthClient } from "@/lib/auth-client";
import type { AuthStatus } from "@/lib/auth-context";

const photoAccessPath = "/api/v1/photo-access";
/** When a renewal fails (offline, server restarting), the next try comes sooner than half a lifetime. */
const retryMs = 60_000;

/**
 * Photos load with a short-lived cookie that the server sets with its answers to a signed-in
 * member (ADR 0018). A member may sit on one screen for longer than it lives and then open a photo
 * in a new tab, so while signed in it is renewed at half its lifetime, and again whenever the page
 * comes back into view (timers sleep with the laptop).
 */
export function usePhotoAccess(status: AuthStatus): void {
  useEffect(() => {
    if (status !== "signedIn") return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const renew = async () => {
      clearTimeout(timer);
      let nextMs = retryMs;
      try {
        nextMs = await renewPhotoAccess();
      } catch {
        // Photos already on screen stay; the next try comes in a minute.
      }
      if (!stopped) timer = setTimeout(() => void renew(), nextMs);
    };
    const onVisible = () => {
      if (document.visibilityState === "visible") void renew();
    };
    timer = setTimeout(() => void renew(), 0);
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      stopped = true;
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, [status]);
}

/**
 * Asks for a fresh cookie; the delay until the next renewal. Plain fetch rather than `apiFetch`:
 * this runs on every screen, the sign-in screen's bundle included, which must not carry the
 * contract's validators.
 */
export async function renewPhotoAccess(): Promise<number> {
  const { data } = await getAuthClient().getSession();
  if (!data.session) return retryMs;
  const response = await fetch(photoAccessPath, {
    method: "POST",
    headers: { Accept: "application/json", Authorization: `Bearer ${data.session.access_token}` },
  });
  if (!response.ok) return retryMs;
  const grant = (await response.json()) as PhotoAccessGrant;
  return grant.expires_in > 0 ? (grant.expires_in * 1000) / 2 : retryMs;
}

/** At sign-out: the cookie no longer opens anything (its session ended), but it need not stay either. */
export function forgetPhotoAccess(): void {
  fetch(photoAccessPath, { method: "DELETE" }).catch(() => {});
}
