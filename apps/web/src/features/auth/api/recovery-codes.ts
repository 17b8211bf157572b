import type { QueryClient } from "@tanstack/react-query";
import { AuthApiError } from "@supabase/auth-js";

import { getAuthClient } from "@/lib/auth-client";
import { activeIntl } from "@/lib/intl";

/** How many recovery codes are left, and when they were made (null: none yet). */
export interface RecoveryCodesStatus {
  remaining: number;
  created_at: string | null;
}

export const recoveryCodesKey = ["auth", "recovery-codes"] as const;

/**
 * Asks again how many codes are left, after codes were made or went: a status request still under
 * way from before (answering "none yet") is cancelled rather than kept as fresh for the cache's
 * 30 s, and the line is asked again even while Settings is not showing it.
 */
export async function refreshRecoveryCodesStatus(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries({ queryKey: recoveryCodesKey });
  await queryClient.invalidateQueries({ queryKey: recoveryCodesKey, refetchType: "all" });
}

/**
 * A request to Memory Box's own recovery-code paths under `/auth/v1/factors/recovery-codes` (ADR
 * 0042; auth-js has no call for them), with this session's token. A refusal is thrown as the auth
 * client's errors are, so `insufficient_aal` asks for the second step as anywhere else.
 */
async function request<T>(path: string, init: RequestInit = {}): Promise<T> {
  const { data } = await getAuthClient().getSession();
  const accessToken = data.session?.access_token;
  if (!accessToken)
    throw new AuthApiError(activeIntl().formatMessage({ id: "recovery.api.signInAgain" }), 401, "no_authorization");
  const response = await fetch(`/auth/v1/factors/recovery-codes${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${accessToken}`,
      "content-type": "application/json",
      "x-supabase-api-version": "2024-01-01",
    },
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const message = typeof body.message === "string" ? body.message : typeof body.msg === "string" ? body.msg : "";
    const code = typeof body.code === "string" ? body.code : typeof body.error_code === "string" ? body.error_code : undefined;
    throw new AuthApiError(message || activeIntl().formatMessage({ id: "recovery.api.failed" }), response.status, code);
  }
  return body as T;
}

export function recoveryCodesStatus(): Promise<RecoveryCodesStatus> {
  return request<RecoveryCodesStatus>("");
}

/** Ten new codes, shown once; every earlier code stops working. Needs the second step proven in this session. */
export async function generateRecoveryCodes(): Promise<string[]> {
  return (await request<{ codes: string[] }>("", { method: "POST" })).codes;
}

/**
 * A recovery code in place of the second step: the server raises this session to aal2 with new
 * tokens, which the auth client then keeps (and announces, as after any sign-in).
 */
export async function verifyRecoveryCode(code: string): Promise<void> {
  const session = await request<{ access_token: string; refresh_token: string }>("/verify", {
    method: "POST",
    body: JSON.stringify({ code }),
  });
  const { error } = await getAuthClient().setSession({
    access_token: session.access_token,
    refresh_token: session.refresh_token,
  });
  if (error) throw error;
}
