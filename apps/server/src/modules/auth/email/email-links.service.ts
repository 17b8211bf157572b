import type { AuthConfig } from "../../../config";
import { AppError } from "../../../errors";
import { validEmail } from "../core/account-rules";
import { isUndelivered } from "../core/auth-mailer";
import type { EmailedTokensService, PkceChallenge, TokenKind } from "../core/emailed-tokens.service";
import type { InvitationCheck } from "../core/invitation-ledger";
import { randomToken } from "../core/secrets";
import type { RequestContext, SessionService } from "../core/session.service";
import type { UsersRepository } from "../core/users.repository";
import type { SignUpService } from "../password/sign-up.service";

/**
 * The links and codes one asks for by address: a magic link or sign-in code (`POST /otp`), a
 * recovery (`POST /recover`), and another copy of a sign-up's or address change's mail
 * (`POST /resend`). None of them tells whether the address has an account.
 */
export class EmailLinksService {
  constructor(
    private readonly deps: {
      config: AuthConfig;
      users: UsersRepository;
      sessionService: SessionService;
      invitations: InvitationCheck;
      signUp: SignUpService;
      emailedTokens: EmailedTokensService;
    },
  ) {}

  /**
   * Passwordless sign-in. Answers the same way whether or not the address has an account or is
   * invited, so it cannot be used to discover either.
   */
  async sendMagicLink(
    input: { email: string; createUser: boolean; data: Record<string, unknown>; pkce?: PkceChallenge },
    redirectTo: string | undefined,
    context: RequestContext,
  ): Promise<void> {
    const email = validEmail(input.email);
    const user = await this.deps.users.findByEmail(email);
    // Supabase Auth's answer to a sign-in code for an address no account uses; `hide` trades it for silence (ADR 0023).
    if (!user && !input.createUser && this.deps.config.otpUnknownAddress === "refuse") throw new AppError("otp_disabled");
    if (this.deps.config.inviteOnly && !(await this.deps.invitations.isInvited(email))) return;
    if (!user) {
      if (!input.createUser || this.deps.config.signupDisabled) return;
      try {
        await this.deps.signUp.signUp(
          {
            email,
            password: randomToken(),
            data: input.data,
            passwordless: true,
            ...(input.pkce ? { pkce: input.pkce } : {}),
          },
          redirectTo,
          context,
        );
      } catch (error) {
        // As for members, the answer must not tell how the mail server fared (the mailer logs it).
        if (isUndelivered(error)) return;
        throw error;
      }
      return;
    }
    const kind: TokenKind = user.email_confirmed_at ? "magiclink" : "signup";
    await this.deps.emailedTokens.sendQuietly(user, kind, {
      redirectTo,
      pkce: input.pkce,
      authenticationMethod: kind === "signup" ? "email/signup" : "magiclink",
    });
  }

  async sendRecovery(input: { email: string; pkce?: PkceChallenge }, redirectTo: string | undefined): Promise<void> {
    const email = validEmail(input.email);
    const user = await this.deps.users.findByEmail(email);
    if (!user || !(await this.deps.sessionService.isAllowedIn(user))) return;
    await this.deps.emailedTokens.sendQuietly(user, "recovery", {
      redirectTo,
      pkce: input.pkce,
      authenticationMethod: "recovery",
    });
  }

  async resend(
    input: { type: "signup" | "email_change"; email: string; pkce?: PkceChallenge },
    redirectTo: string | undefined,
  ): Promise<void> {
    const email = validEmail(input.email);
    const user = await this.deps.users.findByEmail(email);
    if (input.type === "signup") {
      if (user && !user.email_confirmed_at && (await this.deps.sessionService.isAllowedIn(user))) {
        await this.deps.emailedTokens.sendQuietly(user, "signup", {
          redirectTo,
          pkce: input.pkce,
          authenticationMethod: "email/signup",
        });
      }
      return;
    }
    if (user?.email_change)
      await this.deps.emailedTokens.sendQuietly(user, "email_change", {
        redirectTo,
        pkce: input.pkce,
        authenticationMethod: "email_change",
      });
  }
}
