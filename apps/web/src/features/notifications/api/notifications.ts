import type { DeviceNotifications, DeviceNotificationsInput, EmailDigestPreferences, PushKey } from "@memory-box/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { apiFetch } from "@/lib/api-client";

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
