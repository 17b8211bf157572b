import { ApiError, DeviceNotifications, DeviceNotificationsInput, PushKey } from "@memory-box/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { isPublicAddress } from "../../lib/guarded-fetch";
import { memberOf, requireMembers, type MemberAuthenticator } from "../member-door";
import type { NotificationsService } from "./notifications.service";

export interface NotificationsRoutesOptions {
  service: NotificationsService;
  authenticate: MemberAuthenticator;
  /** PUSH_ALLOW_INSECURE_ENDPOINTS: http:// endpoints and private addresses are accepted. */
  allowInsecureEndpoints: boolean;
}

/**
 * Where a push service may be: an https:// URL whose host is a name (checked again at each send,
 * when it resolves) or a public address; never loopback, private or link-local (ADR 0045), unless
 * the operator allows them. A P-256 public key is 65 bytes (uncompressed point), an auth secret 16.
 */
function deviceInput(allowInsecure: boolean) {
  return DeviceNotificationsInput.superRefine((input, context) => {
    // The contract's own checks run alongside: an endpoint that is no URL is already refused.
    const url = URL.parse(input.subscription.endpoint);
    if (!url) return;
    const host = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
    const path = ["subscription", "endpoint"];
    if (!allowInsecure && url.protocol !== "https:") {
      context.addIssue({ code: "custom", path, message: "must be an https:// address" });
    } else if (
      !allowInsecure &&
      ((ipaddr.isValid(host) && !isPublicAddress(host)) || host === "localhost" || host.endsWith(".localhost"))
    ) {
      context.addIssue({ code: "custom", path, message: "must be a public address" });
    }
    if (url.username || url.password) context.addIssue({ code: "custom", path, message: "must not carry credentials" });
    const key = Buffer.from(input.subscription.keys.p256dh, "base64url");
    if (key.length !== 65 || key[0] !== 4) {
      context.addIssue({ code: "custom", path: ["subscription", "keys", "p256dh"], message: "must be a P-256 public key" });
    }
    if (Buffer.from(input.subscription.keys.auth, "base64url").length !== 16) {
      context.addIssue({ code: "custom", path: ["subscription", "keys", "auth"], message: "must be 16 bytes" });
    }
  });
}

/**
 * `/api/v1/notifications/push-key` and `/api/v1/notifications/device`: Web Push for the caller's
 * own device, which is their session. Members only; a device can only see and change itself.
 */
export const notificationsRoutes: FastifyPluginAsyncZod<NotificationsRoutesOptions> = async (
  app,
  { service, authenticate, allowInsecureEndpoints },
) => {
  requireMembers(app, authenticate);
  const errors = { 401: ApiError, 403: ApiError };

  app.get(
    "/api/v1/notifications/push-key",
    {
      schema: {
        tags: ["notifications"],
        summary: "The server's VAPID public key",
        description: "Base64url, for `pushManager.subscribe({ applicationServerKey })`.",
        response: { 200: PushKey, ...errors },
      },
    },
    async () => ({ public_key: service.publicKey }),
  );

  app.get(
    "/api/v1/notifications/device",
    {
      schema: {
        tags: ["notifications"],
        summary: "This device's notifications",
        description: "Whether the caller's device (its session) is subscribed, and what it wants to be told.",
        response: { 200: DeviceNotifications, ...errors },
      },
    },
    async (request) => service.device(memberOf(request).claims.session_id),
  );

  app.put(
    "/api/v1/notifications/device",
    {
      schema: {
        tags: ["notifications"],
        summary: "Turn notifications on for this device, or change what it wants",
        description:
          "The browser's push subscription and the device's preferences. The subscription ends with the session " +
          "(sign-out, the device signed out, a password change); the same endpoint sent from another session moves there.",
        body: deviceInput(allowInsecureEndpoints),
        response: { 200: DeviceNotifications, 400: ApiError, ...errors },
      },
    },
    async (request) => {
      const { user, claims } = memberOf(request);
      return service.putDevice(user.id, claims.session_id, request.body);
    },
  );

  app.delete(
    "/api/v1/notifications/device",
    {
      schema: {
        tags: ["notifications"],
        summary: "Turn notifications off for this device",
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await service.deleteDevice(memberOf(request).claims.session_id);
      return reply.status(204).send(null);
    },
  );
};
