import { useMutation } from "@tanstack/react-query";

import { signInWithPassword, type Credentials } from "@/features/auth/api/credentials";
import { passesInvitationGate, reportUnexpectedAuthError } from "@/features/auth/hooks/invitation-gate";
import { notify } from "@/lib/notify";

async function signIn(credentials: Credentials): Promise<void> {
  if (!(await passesInvitationGate(credentials.email))) return;
  const { error } = await signInWithPassword(credentials);
  if (error) notify.error("Authentication Error", error.message);
  // On success the auth client announces SIGNED_IN, and the auth screen moves the visitor on.
}

/** Invitation check, then a password sign-in. `isPending` is the busy flag. */
export function useSignIn() {
  return useMutation({ mutationFn: signIn, onError: reportUnexpectedAuthError });
}
