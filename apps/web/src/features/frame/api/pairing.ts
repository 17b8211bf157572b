import type { DeviceAuthorization } from "@memory-box/contract";

import {
  FrameOfflineError,
  pollDeviceToken,
  requestDeviceCode,
  storeFrameTokens,
  type FrameTokens,
} from "@/features/frame/api/frame-session";
import { pause } from "@/lib/pause";

/** Why the frame shows a new code: the first, the last one expired, or a member declined it. */
export type NewCodeReason = "first" | "expired" | "denied";

/** How long to wait before asking again for a code when the server could not be reached. */
export const codeRetrySeconds = 10;
/** RFC 8628 §3.5: each `slow_down` adds this to the interval. */
export const slowDownSeconds = 5;

export interface PairingEvents {
  /** A code to show (and why it is a new one). */
  onCode: (authorization: DeviceAuthorization, reason: NewCodeReason) => void;
  /** The server could not be reached (true) or answers again (false). */
  onReachable?: (reachable: boolean) => void;
  signal: AbortSignal;
  /** Waits `ms` (a test gives its own clock). */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
}

/**
 * Pairs the frame (RFC 8628): asks for a code, shows it, and polls the token endpoint at the
 * interval the server gave, slower by five seconds at each `slow_down`; an expired code, or one a
 * member declined, is replaced by a new one. Resolves with the frame's tokens (kept) once a member
 * allowed it; rejects only when `signal` is aborted.
 */
export async function pairFrame({
  onCode,
  onReachable,
  signal,
  wait = sleep,
  now = Date.now,
}: PairingEvents): Promise<FrameTokens> {
  let reason: NewCodeReason = "first";
  for (;;) {
    let authorization: DeviceAuthorization;
    try {
      authorization = await requestDeviceCode(signal);
      onReachable?.(true);
    } catch (error) {
      if (signal.aborted) throw error;
      onReachable?.(false);
      await wait(codeRetrySeconds * 1000, signal);
      continue;
    }
    onCode(authorization, reason);
    const expiresAt = now() + authorization.expires_in * 1000;
    let interval = Math.max(1, authorization.interval);
    reason = "expired";
    while (now() < expiresAt) {
      await wait(interval * 1000, signal);
      let answer;
      try {
        answer = await pollDeviceToken(authorization.device_code, signal);
        onReachable?.(true);
      } catch (error) {
        if (signal.aborted || !(error instanceof FrameOfflineError)) throw error;
        onReachable?.(false);
        continue;
      }
      if (answer.kind === "approved") {
        storeFrameTokens(answer.tokens);
        return answer.tokens;
      }
      if (answer.kind === "slow_down") interval += slowDownSeconds;
      else if (answer.kind === "denied") {
        reason = "denied";
        break;
      } else if (answer.kind === "expired") break;
    }
  }
}

/** Waits `ms`; rejects with the signal's reason when it aborts. */
async function sleep(ms: number, signal: AbortSignal): Promise<void> {
  await pause(ms, signal);
  signal.throwIfAborted();
}
