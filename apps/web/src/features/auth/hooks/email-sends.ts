import { ErrorCode } from "@memory-box/contract";
import type { WebMessageId } from "@memory-box/messages/web";

import { requestPasswordReset, requestSignInCode, resendConfirmation } from "@/features/auth/api/email-links";
import type { SendOutcome } from "@/features/auth/components/email-request-form";
import { passesInvitationGate } from "@/features/auth/hooks/invitation-gate";
import { activeIntl } from "@/lib/intl";

type AuthAnswer = Promise<{ error: { message: string; code?: string } | null }>;

/** Refusals worth more words than the server's message. */
const problemTexts: Partial<Record<string, WebMessageId>> = {
  [ErrorCode.otp_disabled]: "auth.noAccount",
};

/** The auth server's answer as an outcome: its message ("only request this later") when it refused. */
async function outcomeOf(answer: AuthAnswer): Promise<SendOutcome> {
  const { error } = await answer;
  if (!error) return { sent: true };
  const text = error.code ? problemTexts[error.code] : undefined;
  return { sent: false, problem: text ? activeIntl().formatMessage({ id: text }) : error.message };
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
