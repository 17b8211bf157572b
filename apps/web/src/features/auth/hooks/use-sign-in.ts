import { signInWithPassword, type Credentials } from "@/features/auth/api/credentials";
import { passesInvitationGate } from "@/features/auth/hooks/invitation-gate";
import { useAuthAction } from "@/features/auth/hooks/use-auth-action";
import { activeIntl } from "@/lib/intl";
import { notify, SIGN_IN_FLOW } from "@/lib/notify";

async function signIn(credentials: Credentials): Promise<void> {
  if (!(await passesInvitationGate(credentials.email))) return;
  const { error } = await signInWithPassword(credentials);
  if (error) notify.error(activeIntl().formatMessage({ id: "auth.error" }), error.message, { flow: SIGN_IN_FLOW });
  // On success the auth client announces SIGNED_IN, and the auth screen moves the visitor on.
}

/** Invitation check, then a password sign-in. `run` starts it, `isPending` is the busy flag. */
export function useSignIn() {
  return useAuthAction(signIn);
}
