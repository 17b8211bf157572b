import { NetworkError } from "@/lib/api-client";

/** How a one-click unsubscribe went: done, a link that is not (or no longer) good, or another failure. */
export type UnsubscribeResult = { kind: "done" } | { kind: "invalid" } | { kind: "failed"; problem?: string };

/**
 * `POST /api/v1/notifications/email/unsubscribe?token=…` with the one-click body (RFC 8058), as the
 * e-mail's link does: no session (the token is the proof), so not through `apiFetch`, whose 401
 * would end a session this page has nothing to do with.
 */
export async function unsubscribeFromDigest(token: string): Promise<UnsubscribeResult> {
  let response: Response;
  try {
    response = await fetch(`/api/v1/notifications/email/unsubscribe?${new URLSearchParams({ token })}`, {
      method: "POST",
      headers: { Accept: "application/json" },
      body: new URLSearchParams({ "List-Unsubscribe": "One-Click" }),
    });
  } catch {
    return { kind: "failed", problem: new NetworkError().message };
  }
  if (response.ok) return { kind: "done" };
  if (response.status === 400 || response.status === 401 || response.status === 404 || response.status === 410)
    return { kind: "invalid" };
  const error = (await response.json().catch(() => ({}))) as { message?: unknown };
  return { kind: "failed", problem: response.status < 500 && typeof error.message === "string" ? error.message : undefined };
}
