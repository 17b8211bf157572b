import { ErrorCode } from "@memory-box/contract";

import { requestPasswordReset, requestSignInCode, resendConfirmation } from "@/features/auth/api/email-links";
import type { SendOutcome } from "@/features/auth/components/email-request-form";
import { passesInvitationGate } from "@/features/auth/hooks/invitation-gate";

type AuthAnswer = Promise<{ error: { message: string; code?: string } | null }>;

/** Refusals worth more words than the server's message. */
const problemTexts: Partial<Record<string, string>> = {
  [ErrorCode.otp_disabled]: "No account uses this address. Check it for typos, or sign up first.",
};

/** The auth server's answer as an outcome: its message ("only request this later") when it refused. */
async function outcomeOf(answer: AuthAnswer): Promise<SendOutcome> {
  const { error } = await answer;
  return error ? { sent: false, problem: (error.code && problemTexts[error.code]) || error.message } : { sent: true };
}

/** The e-mails the auth screen can ask for. Sign-in codes go through the invitation check first, like every sign-in. */
export const emailSends = {
  passwordReset: (email: string) => outcomeOf(requestPasswordReset(email)),
  confirmation: (email: string) => outcomeOf(resendConfirmation(email)),
  signInCode: async (email: string): Promise<SendOutcome> => {
    if (!(await passesInvitationGate(email))) return { sent: false };
    return outcomeOf(requestSignInCode(email));
  },
};
