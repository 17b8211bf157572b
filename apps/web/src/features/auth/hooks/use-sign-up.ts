import { signUpWithPassword, type Credentials } from "@/features/auth/api/credentials";
import { markEmailUsed } from "@/features/auth/api/invitations";
import { passesInvitationGate } from "@/features/auth/hooks/invitation-gate";
import { useAuthAction } from "@/features/auth/hooks/use-auth-action";
import { notify } from "@/lib/notify";

async function signUp(credentials: Credentials): Promise<void> {
  if (!(await passesInvitationGate(credentials.email))) return;
  const { data, error } = await signUpWithPassword(credentials);
  if (error) {
    notify.error("Authentication Error", error.message);
    return;
  }
  try {
    await markEmailUsed(credentials.email, data.session?.access_token);
  } catch (markError) {
    // Expected while the account awaits confirmation (no session yet); the server marked it at sign-up.
    console.warn("Could not mark the invitation as used:", markError);
  }
  notify.success("Success", "Check your email for confirmation link");
}

/** Invitation check, account creation, then the invitation is marked used. `run` starts it, `isPending` is the busy flag. */
export function useSignUp() {
  return useAuthAction(signUp);
}
