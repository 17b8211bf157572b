import { createHash } from "node:crypto";
import webPush from "web-push";
import { guardedFetch, OutboundFetchError } from "../../lib/guarded-fetch";

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/** The setting that keeps a generated key pair (JSON of `VapidKeys`). */
export const vapidKeysSetting = "push.vapid_keys";

/**
 * The instance's VAPID key pair: the operator's, or one generated at first start and kept in the
 * instance settings. `putIfAbsent` stores only the first of processes starting at once, and each
 * reads back the one that won, so all sign with one key.
 */
export async function resolveVapidKeys(
  configured: VapidKeys | undefined,
  putIfAbsent: (key: string, value: string) => Promise<string>,
): Promise<VapidKeys> {
  if (configured) return configured;
  const generated = webPush.generateVAPIDKeys();
  const kept = JSON.parse(await putIfAbsent(vapidKeysSetting, JSON.stringify(generated))) as VapidKeys;
  return { publicKey: kept.publicKey, privateKey: kept.privateKey };
}

/** A VAPID JWT lives 12 hours (RFC 8292 allows 24) and is signed again when less than one is left. */
const vapidLifetimeSeconds = 12 * 3600;
const vapidRenewSeconds = 3600;

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** How a push service answered, as the outbox acts on it. */
export type PushOutcome =
  | { kind: "delivered" }
  /** 404 or 410: the subscription is gone for good. */
  | { kind: "gone"; status: number }
  /** 429, 5xx, no answer: try again later. */
  | { kind: "retry"; reason: string }
  /** Any other answer (400, 403, 413…), or an address refused: this message will never go. */
  | { kind: "rejected"; reason: string };

export interface PushSenderOptions {
  keys: VapidKeys;
  subject: string;
  /** The operator allows http:// and private addresses (their own push service, or tests). */
  allowAnyAddress: boolean;
  timeoutMs?: number;
}

/**
 * Encrypts a payload for one subscription (RFC 8291, aes128gcm), signs the VAPID JWT (RFC 8292)
 * with web-push, and POSTs it through `guardedFetch`, so an endpoint a member gave can never make
 * the server reach inside its own network (ADR 0045) unless the operator allows it.
 */
export class PushSender {
  /** The VAPID Authorization header per push service origin, signed once for hours, not per message. */
  private readonly authorizations = new Map<string, { header: string; expiresAt: number }>();

  constructor(private readonly options: PushSenderOptions) {}

  private authorizationFor(endpoint: string): string {
    const origin = new URL(endpoint).origin;
    const now = Math.floor(Date.now() / 1000);
    const cached = this.authorizations.get(origin);
    if (cached && cached.expiresAt - now > vapidRenewSeconds) return cached.header;
    const expiresAt = now + vapidLifetimeSeconds;
    const { publicKey, privateKey } = this.options.keys;
    const headers = webPush.getVapidHeaders(origin, this.options.subject, publicKey, privateKey, "aes128gcm", expiresAt);
    // Push services are few (a handful of browser vendors'); the map is only a guard.
    if (this.authorizations.size > 1000) this.authorizations.clear();
    this.authorizations.set(origin, { header: headers.Authorization, expiresAt });
    return headers.Authorization;
  }

  async send(target: PushTarget, payload: string, tag: string): Promise<PushOutcome> {
    const details = webPush.generateRequestDetails(
      { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
      payload,
      {
        headers: { Authorization: this.authorizationFor(target.endpoint) },
        contentEncoding: "aes128gcm",
        TTL: 24 * 3600,
        // A message not yet delivered is replaced by a newer one of the same tag at the push service.
        topic: createHash("sha256").update(tag).digest("base64url").slice(0, 32),
      },
    );
    const headers = Object.fromEntries(Object.entries(details.headers).map(([name, value]) => [name, String(value)]));
    try {
      const response = await guardedFetch(details.endpoint, {
        method: "POST",
        headers,
        body: details.body ?? Buffer.alloc(0),
        timeoutMs: this.options.timeoutMs ?? 10_000,
        maxBytes: 64 * 1024,
        maxRedirects: 0,
        allowAnyAddress: this.options.allowAnyAddress,
      });
      if (response.status >= 200 && response.status < 300) return { kind: "delivered" };
      if (response.status === 404 || response.status === 410) return { kind: "gone", status: response.status };
      if (response.status === 429 || response.status >= 500) return { kind: "retry", reason: `status_${response.status}` };
      return { kind: "rejected", reason: `status_${response.status}` };
    } catch (error) {
      if (error instanceof OutboundFetchError) {
        if (error.reason === "timeout" || error.reason === "unreachable") return { kind: "retry", reason: error.reason };
        return { kind: "rejected", reason: error.reason };
      }
      throw error;
    }
  }
}
