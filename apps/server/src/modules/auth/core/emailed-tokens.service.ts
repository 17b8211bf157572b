import { randomUUID } from "node:crypto";
import type { AuthConfig } from "../../../config";
import type { Transaction } from "kysely";
import type { Database, OneTimeTokenRow, UserRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import type { AuthAuditLog } from "./audit-log";
import type { AuthMailer } from "./auth-mailer";
import { parseObject } from "./auth.presenter";
import type { OneTimeTokensRepository } from "./one-time-tokens.repository";
import { codeHash, randomCode, randomToken, sha256 } from "./secrets";
import type { SessionsRepository } from "./sessions.repository";
import type { UsersRepository } from "./users.repository";

/** E-mailed token kinds, as stored; the names match the `type` of /verify where they overlap. */
export type TokenKind = "signup" | "invite" | "magiclink" | "recovery" | "email_change" | "reauthentication";

export const allTokenKinds: TokenKind[] = ["signup", "invite", "magiclink", "recovery", "email_change", "reauthentication"];

export interface PkceChallenge {
  codeChallenge: string;
  codeChallengeMethod: string;
}

export interface TokenOptions {
  redirectTo?: string | undefined;
  pkce?: PkceChallenge | undefined;
  /** Recorded on a PKCE flow, to name how its session was authenticated. */
  authenticationMethod?: string;
  /** What a sign-up chose, held on its confirmation token until the mailbox is proven (ADR 0014). */
  pending?: PendingRegistration;
  /** The sign-up's own `pkce` challenge proves its client too: `pending` is kept on its flow (ADR 0046). */
  pendingOnFlow?: boolean;
}

/** A sign-up's choices, and the hash of the secret its browser keeps in a cookie. */
export interface PendingRegistration {
  passwordHash: string;
  userMetadata: Record<string, unknown>;
  browserBindingHash: string;
}

export interface IssuedToken {
  user: UserRow;
  recipient: string;
  /** The /verify link; absent for reauthentication, which has only a code. */
  link: string | undefined;
  code: string;
  /** The link's token, which /verify also accepts as `token_hash`. */
  linkToken: string;
  redirectTo: string;
}

const mailKind = {
  signup: "confirmation",
  invite: "invite",
  magiclink: "magic_link",
  recovery: "recovery",
  email_change: "email_change",
  reauthentication: "reauthentication",
} as const;

/**
 * One-time links and codes sent by e-mail, for every flow that sends one: sign-up, magic links,
 * recovery, address changes, reauthentication and the admin API's invitations and links.
 */
export class EmailedTokensService {
  constructor(
    private readonly deps: {
      config: AuthConfig;
      publicUrl: string;
      users: UsersRepository;
      sessions: SessionsRepository;
      tokens: OneTimeTokensRepository;
      mailer: AuthMailer;
      audit: AuthAuditLog;
      /** Where a link may send someone: the requested address when allowed, else the site. */
      redirectTarget: (requested: string | undefined) => string;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Creates a one-time token, records when it was sent and e-mails it. A second mail of the same
   * kind within the minimum interval is refused with 429. The mail is queued in the transaction
   * that stores the token (ADR 0077): the answer never waits for the mail server, nor learns how it
   * fared.
   */
  async send(user: UserRow, kind: TokenKind, options: TokenOptions): Promise<UserRow> {
    const sentAtColumn = sentAtColumnFor(kind);
    const lastSent = user[sentAtColumn];
    const now = this.now();
    const intervalMs = this.deps.config.emailMinIntervalSeconds * 1000;
    // Claimed in the database, not checked on `user`: requests racing each other (a burst of
    // /recover calls) must not all pass the interval and flood the inbox.
    if (
      !(await this.deps.users.claimMailSlot(
        user.id,
        sentAtColumn,
        now.toISOString(),
        new Date(now.getTime() - intervalMs).toISOString(),
      ))
    ) {
      const latest = (await this.deps.users.findById(user.id))?.[sentAtColumn];
      const waitMs = latest ? Date.parse(latest) + intervalMs - now.getTime() : intervalMs;
      throw new AppError("over_email_send_rate_limit", {
        text: { id: "errorText.emailRateLimit", values: { seconds: Math.max(1, Math.ceil(waitMs / 1000)) } },
      });
    }
    let issued: IssuedToken;
    try {
      issued = await this.issue(user, kind, options, (token, trx) =>
        this.deps.mailer.sendLink(
          mailKind[kind],
          {
            code: token.code,
            email: token.recipient,
            ...(token.link ? { link: token.link } : {}),
            ...(kind === "email_change" ? { newEmail: token.recipient } : {}),
            locale: user.locale,
          },
          trx,
        ),
      );
    } catch (error) {
      // Nothing was queued, so the minimum interval must not make them wait to ask again.
      await this.deps.users.update(user.id, { [sentAtColumn]: lastSent });
      throw error;
    }
    await this.deps.audit.record({ action: `mail.${kind}_sent`, actorId: user.id, actorEmail: user.email });
    return issued.user;
  }

  /**
   * For flows that must not reveal whether an account exists: throttling is silent, and as for
   * every mail, neither the mail server's delay nor its failure shows in the answer.
   */
  async sendQuietly(user: UserRow, kind: TokenKind, options: TokenOptions): Promise<void> {
    try {
      await this.send(user, kind, options);
    } catch (error) {
      if (error instanceof AppError && error.code === "over_email_send_rate_limit") return;
      throw error;
    }
  }

  /**
   * Creates a one-time token (replacing the previous one of its kind) and records when it was
   * issued. Returns the link and code to deliver; only hashes are stored. `within` runs in the
   * transaction that stores the token (the mail is queued there).
   */
  async issue(
    user: UserRow,
    kind: TokenKind,
    options: TokenOptions,
    within?: (issued: IssuedToken, trx: Transaction<Database>) => Promise<void>,
  ): Promise<IssuedToken> {
    const now = this.now();
    const sentAtColumn = sentAtColumnFor(kind);
    const recipient = kind === "email_change" ? (user.email_change ?? user.email) : user.email;
    const linkToken = randomToken();
    const code = randomCode();
    const flowStateId = options.pkce ? randomUUID() : null;
    const redirectTo = this.deps.redirectTarget(options.redirectTo);
    const link =
      kind === "reauthentication"
        ? undefined
        : `${this.deps.publicUrl}/auth/v1/verify?${new URLSearchParams({ token: linkToken, type: kind, redirect_to: redirectTo }).toString()}`;
    const issued = { user: { ...user, [sentAtColumn]: now.toISOString() }, recipient, link, code, linkToken, redirectTo };
    await this.deps.sessions.transaction(async (trx) => {
      // Each sign-up keeps its own link, bound to its own browser, until the mailbox is proven. A
      // new link without a sign-up (a resend, a magic link to an unconfirmed account) replaces the
      // newest one and keeps what that sign-up chose, still bound to the same browser.
      const replaced =
        kind === "signup" && !options.pending ? await this.deps.tokens.findLatest(user.id, "signup", trx) : undefined;
      const pending = options.pending ?? pendingOf(replaced);
      if (options.pkce && flowStateId) {
        await this.deps.tokens.createFlowState(
          {
            id: flowStateId,
            user_id: user.id,
            code_challenge: options.pkce.codeChallenge,
            code_challenge_method: options.pkce.codeChallengeMethod,
            authentication_method: options.authenticationMethod ?? kind,
            auth_code_hash: null,
            auth_code_issued_at: null,
            created_at: now.toISOString(),
            // A sign-up's own challenge proves its client too: what it chose is kept on its flow,
            // for the exchange of the code with the verifier (ADR 0046). Never what a later link
            // carried over from another sign-up: a resend's challenge is not the sign-up's.
            pending_password_hash: (options.pendingOnFlow && options.pending?.passwordHash) || null,
            pending_user_metadata: options.pendingOnFlow && options.pending ? JSON.stringify(options.pending.userMetadata) : null,
          },
          trx,
        );
      }
      const token: OneTimeTokenRow = {
        id: randomUUID(),
        user_id: user.id,
        token_type: kind,
        token_hash: sha256(linkToken),
        otp_hash: codeHash(recipient, code),
        relates_to: recipient,
        flow_state_id: flowStateId,
        created_at: now.toISOString(),
        expires_at: new Date(now.getTime() + this.deps.config.emailLinkTtlSeconds * 1000).toISOString(),
        pending_password_hash: pending?.passwordHash ?? null,
        pending_user_metadata: pending ? JSON.stringify(pending.userMetadata) : null,
        browser_binding_hash: pending?.browserBindingHash ?? null,
        failed_attempts: 0,
      };
      if (kind !== "signup") await this.deps.tokens.replace(token, trx);
      else {
        if (replaced) await this.deps.tokens.consume(replaced.id, trx);
        await this.deps.tokens.insert(token, trx);
      }
      await this.deps.users.update(user.id, { [sentAtColumn]: now.toISOString(), email_change: user.email_change }, trx);
      await within?.(issued, trx);
    });
    return issued;
  }
}

/** What a sign-up chose, as its confirmation token holds it, if it holds any. */
export function pendingOf(token: OneTimeTokenRow | undefined): PendingRegistration | undefined {
  if (!token?.pending_password_hash || !token.browser_binding_hash) return undefined;
  return {
    passwordHash: token.pending_password_hash,
    userMetadata: parseObject(token.pending_user_metadata ?? "{}"),
    browserBindingHash: token.browser_binding_hash,
  };
}

function sentAtColumnFor(kind: TokenKind) {
  switch (kind) {
    case "signup":
      return "confirmation_sent_at" as const;
    case "invite":
      return "invited_at" as const;
    case "magiclink":
    case "recovery":
      return "recovery_sent_at" as const;
    case "email_change":
      return "email_change_sent_at" as const;
    case "reauthentication":
      return "reauthentication_sent_at" as const;
  }
}
