import { isAuthWeakPasswordError } from "@supabase/auth-js";
import { useState } from "react";

import { signUpWithPassword, type Credentials } from "@/features/auth/api/credentials";
import { markEmailUsed, rememberInvitationToMark } from "@/features/auth/api/invitations";
import { passesInvitationGate } from "@/features/auth/hooks/invitation-gate";
import { useAuthAction } from "@/features/auth/hooks/use-auth-action";
import { notify } from "@/lib/notify";

/** The rule a new password must meet, shown on the sign-up form before submitting. */
export const passwordRule =
  "Choose a password that is hard to guess: common passwords, keyboard patterns and your email address are not accepted.";

/** The server's `weak_password` reasons (GoTrue's), in words. */
const reasonTexts: Record<string, string> = {
  length: "This password is too short.",
  characters: "This password needs more kinds of characters.",
  pwned: "This password is too easy to guess: it is a common password, or close to one, or contains your email address.",
};

/** Returns what was wrong with the password when the server refused it as weak, else nothing. */
async function signUp(credentials: Credentials): Promise<string[]> {
  if (!(await passesInvitationGate(credentials.email))) return [];
  const { data, error } = await signUpWithPassword(credentials);
  if (error) {
    notify.error("Authentication Error", error.message);
    return isAuthWeakPasswordError(error) ? error.reasons.map((reason) => reasonTexts[reason] ?? error.message) : [];
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
  notify.success("Success", "Check your email for confirmation link");
  return [];
}

/**
 * Invitation check, account creation, then the invitation is marked used. `run` starts it,
 * `isPending` is the busy flag; `passwordProblems` says why the server refused the password, until
 * `clearPasswordProblems` (the password is edited).
 */
export function useSignUp() {
  const [passwordProblems, setPasswordProblems] = useState<string[]>([]);
  const action = useAuthAction(async (credentials: Credentials) => {
    setPasswordProblems([]);
    setPasswordProblems(await signUp(credentials));
  });
  return {
    ...action,
    passwordProblems,
    clearPasswordProblems: () => setPasswordProblems((problems) => (problems.length === 0 ? problems : [])),
  };
}
