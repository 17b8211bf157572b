import { callRpc } from "@/lib/rpc";

/** Whether `email` is on the invitation list. Rejects when the server cannot answer (or answers nonsense). */
export async function isEmailInvited(email: string): Promise<boolean> {
  const invited = await callRpc<unknown>("is_email_invited", { check_email: email });
  if (typeof invited !== "boolean") throw new TypeError(`is_email_invited answered ${JSON.stringify(invited)}, not a boolean`);
  return invited;
}

/** Marks the caller's invitation as used; the server takes it only with that account's session. */
export async function markEmailUsed(email: string, accessToken: string): Promise<void> {
  await callRpc<null>("mark_email_used", { user_email: email }, { accessToken });
}

/** A sign-up whose invitation is still to be marked, kept until its first session. */
const pendingMarkKey = "memory-box-invitation-to-mark";

/**
 * After a sign-up that awaits e-mail confirmation there is no session, and a call now could only
 * be refused: the address is remembered instead, and `markRememberedInvitation` makes the call
 * with the first session of that account (opened by the confirmation link).
 */
export function rememberInvitationToMark(email: string): void {
  try {
    localStorage.setItem(pendingMarkKey, email.trim().toLowerCase());
  } catch {
    // Storage refused (private mode): the server marks the invitation at confirmation anyway.
  }
}

/** Marks the remembered invitation once its account is signed in; a no-op for anyone else. */
export async function markRememberedInvitation(email: string | undefined, accessToken: string): Promise<void> {
  const pending = localStorage.getItem(pendingMarkKey);
  if (pending === null || pending !== email?.trim().toLowerCase()) return;
  localStorage.removeItem(pendingMarkKey);
  await markEmailUsed(pending, accessToken);
}
