import type { WebMessageId } from "@memory-box/messages/web";
import { isAuthWeakPasswordError } from "@supabase/auth-js";

import { activeIntl, type AppIntl } from "@/lib/intl";

/** The rule a new password must meet, shown under every new-password field before submitting. */
export function passwordRule(intl: AppIntl = activeIntl()): string {
  return intl.formatMessage({ id: "passwordRule.rule" });
}

/** The server's `weak_password` reasons (GoTrue's), in words. */
const reasonTexts: Partial<Record<string, WebMessageId>> = {
  length: "passwordRule.length",
  characters: "passwordRule.characters",
  pwned: "passwordRule.pwned",
};

/** What the server found wrong with a new password, in words; nothing for any other error. */
export function passwordProblemsOf(error: unknown): string[] {
  if (!isAuthWeakPasswordError(error)) return [];
  return error.reasons.map((reason) => {
    const text = reasonTexts[reason];
    return text ? activeIntl().formatMessage({ id: text }) : error.message;
  });
}
