import type { Transaction } from "kysely";
import type { Database } from "../../../db/schema";
import { AppError } from "../../../errors";

/*
 * What auth asks of the mail. Auth declares it and app.ts hands it the mail module's templated
 * mailer; auth itself never imports the mail module (ADR 0037).
 */

/** The mails that carry a one-time link and code. */
export type LinkMailKind = "confirmation" | "magic_link" | "recovery" | "invite" | "email_change" | "reauthentication";

export interface LinkMail {
  /** The address the mail goes to. */
  email: string;
  /** The six-digit code, the alternative to the link. */
  code: string;
  /** The action link; absent for reauthentication, which is code-only. */
  link?: string;
  /** The address being changed to (email_change). */
  newEmail?: string;
  /** The language the account's member chose, or null to write in the request's (ADR 0049). */
  locale?: string | null;
}

/** Notices of a change already made to an account, sent to the address it had before. */
export type NoticeKind =
  | "password_changed"
  | "email_changed"
  | "factor_added"
  | "factors_removed"
  | "factor_locked"
  | "recovery_code_used"
  | "recovery_codes_locked"
  | "passkey_added"
  | "passkey_removed"
  | "identity_linked"
  | "identity_unlinked"
  | "wallet_linked"
  | "wallet_unlinked";

export interface NoticeMail {
  /** The account's address before the change, which the notice goes to. */
  email: string;
  /** The address the account uses from now on (email_changed). */
  newEmail?: string;
  /** When the change was made. */
  changedAt: Date;
  /** What was added as a second step (factor_added): an authenticator app unless said otherwise. */
  factor?: "authenticator app" | "security key";
  /** How many unused recovery codes the account has left (recovery_code_used). */
  recoveryCodesLeft?: number;
  /** The sign-in provider's name, "Google" (identity_linked, identity_unlinked). */
  provider?: string;
  /** The address of the account at that provider, when it has one. */
  providerAccount?: string;
  /** The wallet connected or disconnected (wallet_linked, wallet_unlinked): "Ethereum" and its address. */
  wallet?: { chain: string; address: string };
  /** The language the account's member chose, or null to write in the request's (ADR 0049). */
  locale?: string | null;
}

export interface AuthMailer {
  /**
   * Renders and sends a mail with a one-time link and code. The server's mailer queues it (ADR
   * 0077), in `transaction` when given: the one that stores the link's token, so the token and its
   * mail exist together or not at all. A mailer that sends at once rejects as `isUndelivered` tells.
   */
  sendLink(kind: LinkMailKind, mail: LinkMail, transaction?: Transaction<Database>): Promise<void>;
  /** Renders and sends a notice, with no link or code. */
  sendNotice(kind: NoticeKind, mail: NoticeMail): Promise<void>;
}

/** Whether an AuthMailer's rejection means the mail server did not take the mail (`email_send_failed`). */
export function isUndelivered(error: unknown): boolean {
  return error instanceof AppError && error.code === "email_send_failed";
}
