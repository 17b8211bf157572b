import { useState } from "react";

import { signUpWithPassword, type Credentials } from "@/features/auth/api/credentials";
import { markEmailUsed, rememberInvitationToMark } from "@/features/auth/api/invitations";
import { passesInvitationGate } from "@/features/auth/hooks/invitation-gate";
import { useAuthAction } from "@/features/auth/hooks/use-auth-action";
import { passwordProblemsOf } from "@/features/auth/utils/password-rule";
import { activeIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

/**
 * Returns what was wrong with the password when the server refused it as weak, else nothing.
 * Tells `onAwaitingConfirmation` when the account waits for its e-mailed link or code.
 */
async function signUp(credentials: Credentials, onAwaitingConfirmation?: (email: string) => void): Promise<string[]> {
  if (!(await passesInvitationGate(credentials.email))) return [];
  const { data, error } = await signUpWithPassword(credentials);
  if (error) {
    notify.error(activeIntl().formatMessage({ id: "auth.error" }), error.message);
    return passwordProblemsOf(error);
  }
  if (data.session) {
    try {
      await markEmailUsed(credentials.email, data.session.access_token);
    } catch (markError) {
      // The server marks the invitation at confirmation too; nothing the visitor could do about it.
      console.warn("Could not mark the invitation as used:", markError);
    }
  } else {
    // Awaiting confirmation: no session to call with yet; marked at the first sign-in (RequireAuth).
    rememberInvitationToMark(credentials.email);
  }
  notify.success(activeIntl().formatMessage({ id: "signUp.success" }), activeIntl().formatMessage({ id: "signUp.checkEmail" }));
  if (!data.session) onAwaitingConfirmation?.(credentials.email);
  return [];
}

/**
 * Invitation check, account creation, then the invitation is marked used. `run` starts it,
 * `isPending` is the busy flag; `passwordProblems` says why the server refused the password, until
 * `clearPasswordProblems` (the password is edited).
 */
export function useSignUp(onAwaitingConfirmation?: (email: string) => void) {
  const [passwordProblems, setPasswordProblems] = useState<string[]>([]);
  const action = useAuthAction(async (credentials: Credentials) => {
    setPasswordProblems([]);
    setPasswordProblems(await signUp(credentials, onAwaitingConfirmation));
  });
  return {
    ...action,
    passwordProblems,
    clearPasswordProblems: () => setPasswordProblems((problems) => (problems.length === 0 ? problems : [])),
  };
}
