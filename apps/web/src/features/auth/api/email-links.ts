import { getAuthClient } from "@/lib/auth-client";
import { paths } from "@/config/paths";

/** What an e-mailed six-digit code proves: a sign-up's address, a sign-in by e-mail, or a new address. */
export type CodePurpose = "signup" | "email" | "email_change";

const origin = () => window.location.origin;

/** `POST /recover`: a link to set a new password, leading to the set-password screen. */
export function requestPasswordReset(email: string) {
  return getAuthClient().resetPasswordForEmail(email, { redirectTo: `${origin()}${paths.setPassword}` });
}

/** `POST /resend`: the sign-up's confirmation e-mail again (a new link and code). */
export function resendConfirmation(email: string) {
  return getAuthClient().resend({ type: "signup", email, options: { emailRedirectTo: `${origin()}${paths.home}` } });
}

/** `POST /otp`: a sign-in link and code for a member's address; never creates an account. */
export function requestSignInCode(email: string) {
  return getAuthClient().signInWithOtp({
    email,
    options: { shouldCreateUser: false, emailRedirectTo: `${origin()}${paths.home}` },
  });
}

/** `POST /verify` with the code typed from the e-mail; a right code signs in. */
export function verifyEmailCode(email: string, code: string, purpose: CodePurpose) {
  return getAuthClient().verifyOtp({ email, token: code, type: purpose });
}

/**
 * `PUT /user`: the signed-in member's new password. In a session older than a day the server asks
 * for the code `requestReauthentication` e-mails (`nonce`) first (`reauthentication_needed`).
 */
export function setNewPassword(password: string, nonce?: string) {
  return getAuthClient().updateUser(nonce ? { password, nonce } : { password });
}

/** `GET /reauthenticate`: e-mails the member a code that confirms a password change. */
export function requestReauthentication() {
  return getAuthClient().reauthenticate();
}

/**
 * `PUT /user` with a new address: the server e-mails the new address a link and a code; the
 * change takes effect when either is used. The link comes back to `returnPath`.
 */
export function requestEmailChange(email: string, returnPath: string) {
  return getAuthClient().updateUser({ email }, { emailRedirectTo: `${origin()}${returnPath}` });
}
