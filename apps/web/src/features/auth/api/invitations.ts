import { callRpc } from "@/lib/rpc";

/** Whether `email` is on the invitation list. Rejects when the server cannot answer (or answers nonsense). */
export async function isEmailInvited(email: string): Promise<boolean> {
  const invited = await callRpc<unknown>("is_email_invited", { check_email: email });
  if (typeof invited !== "boolean") throw new TypeError(`is_email_invited answered ${JSON.stringify(invited)}, not a boolean`);
  return invited;
}

/**
 * Marks the caller's invitation as used. Needs the new account's session; right after a sign-up
 * that still awaits e-mail confirmation there is none and the server answers 401, but it has
 * already marked the invitation at sign-up, so callers treat a failure as harmless.
 */
export async function markEmailUsed(email: string, accessToken: string | undefined): Promise<void> {
  await callRpc<null>("mark_email_used", { user_email: email }, { accessToken });
}
