import { isAuthWeakPasswordError } from "@supabase/auth-js";

/** The rule a new password must meet, shown under every new-password field before submitting. */
export const passwordRule =
  "Choose a password that is hard to guess: common passwords, keyboard patterns and your email address are not accepted.";

/** The server's `weak_password` reasons (GoTrue's), in words. */
const reasonTexts: Record<string, string> = {
  length: "This password is too short.",
  characters: "This password needs more kinds of characters.",
  pwned: "This password is too easy to guess: it is a common password, or close to one, or contains your email address.",
};

/** What the server found wrong with a new password, in words; nothing for any other error. */
export function passwordProblemsOf(error: unknown): string[] {
  if (!isAuthWeakPasswordError(error)) return [];
  return error.reasons.map((reason) => reasonTexts[reason] ?? error.message);
}
