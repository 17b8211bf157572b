import type { DeviceNotifications, DeviceNotificationsInput, EmailDigestPreferences, PushKey } from "@memory-box/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { apiFetch, NetworkError } from "@/lib/api-client";

const devicePath = "/api/v1/notifications/device";
const emailPath = "/api/v1/notifications/email";

export const notificationKeys = {
  device: () => ["notifications", "device"] as const,
  email: () => ["notifications", "email"] as const,
};

/** `GET /api/v1/notifications/push-key`: the instance's VAPID public key (base64url). */
export function fetchPushKey(): Promise<string> {
  return apiFetch<PushKey>("/api/v1/notifications/push-key").then((key) => key.public_key);
}

/** `GET /api/v1/notifications/device`: whether this device (its session) is subscribed, and what it wants. */
export function useDeviceNotifications() {
  return useQuery(
    queryOptions({
      queryKey: notificationKeys.device(),
      queryFn: ({ signal }) => apiFetch<DeviceNotifications>(devicePath, { signal }),
    }),
  );
}

/** `PUT /api/v1/notifications/device`: this device subscribes, or changes what it wants. */
export function putDeviceNotifications(input: DeviceNotificationsInput): Promise<DeviceNotifications> {
  return apiFetch<DeviceNotifications>(devicePath, { method: "PUT", body: input });
}

/** `DELETE /api/v1/notifications/device`: notifications off on this device. */
export function deleteDeviceNotifications(): Promise<void> {
  return apiFetch<void>(devicePath, { method: "DELETE" });
}

/** `GET /api/v1/notifications/email`: the member's e-mail digest. */
export function useEmailDigest() {
  return useQuery(
    queryOptions({
      queryKey: notificationKeys.email(),
      queryFn: ({ signal }) => apiFetch<EmailDigestPreferences>(emailPath, { signal }),
    }),
  );
}

/** `PUT /api/v1/notifications/email`; the answer is put in place. */
export function useSaveEmailDigest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EmailDigestPreferences) => apiFetch<EmailDigestPreferences>(emailPath, { method: "PUT", body: input }),
    onSuccess: (saved) => queryClient.setQueryData(notificationKeys.email(), saved),
  });
}

/** This device's preferences as the server keeps them, put in place after a change. */
export function useKeepDeviceAnswer() {
  const queryClient = useQueryClient();
  return (answer: DeviceNotifications) => queryClient.setQueryData(notificationKeys.device(), answer);
}

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
    response = await fetch(`${emailPath}/unsubscribe?${new URLSearchParams({ token })}`, {
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
