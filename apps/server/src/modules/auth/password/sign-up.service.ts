import { randomUUID } from "node:crypto";
import type { AuthConfig } from "../../../config";
import type { UserRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import type { AuthAuditLog } from "../core/audit-log";
import { displayNameFor, newAnonymousUser, newUser, validEmail } from "../core/account-rules";
import { parseObject, presentUser, type SessionJson } from "../core/auth.presenter";
import type { EmailedTokensService, PkceChallenge } from "../core/emailed-tokens.service";
import type { InvitationLedger } from "../core/invitation-ledger";
import { randomToken, sha256 } from "../core/secrets";
import { notInvited, type RequestContext, type SessionService } from "../core/session.service";
import type { SessionsRepository } from "../core/sessions.repository";
import type { UsersRepository } from "../core/users.repository";
import type { PasswordHasher } from "./password-hasher";
import type { PasswordPolicy } from "./password-policy";

/** The answer to a sign-up, and the secret to leave in the signing-up browser when one was made. */
export interface SignUpResult {
  body: SessionJson | Record<string, unknown>;
  browserSecret?: string;
}

/**
 * Signing up with an address and a password (`POST /signup`; a magic link to a new address signs
 * up the same way). Invitations are enforced here, on the server.
 */
export class SignUpService {
  constructor(
    private readonly deps: {
      config: AuthConfig;
      users: UsersRepository;
      sessions: SessionsRepository;
      sessionService: SessionService;
      invitations: InvitationLedger;
      hasher: PasswordHasher;
      passwordPolicy: PasswordPolicy;
      emailedTokens: EmailedTokensService;
      audit: AuthAuditLog;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Supabase Auth's anonymous sign-in (ADR 0072): a new account without an address, password or
   * identity, and its session. Off unless the operator turned it on, which config.ts allows only
   * with invite-only off; such an account never opens the collection (the member door refuses it).
   */
  async signInAnonymously(data: Record<string, unknown>, context: RequestContext): Promise<SessionJson> {
    const { config } = this.deps;
    if (!config.anonymousSignIns || config.inviteOnly) throw new AppError("anonymous_provider_disabled");
    if (config.signupDisabled) throw new AppError("signup_disabled");
    const user = newAnonymousUser(data, this.now().toISOString());
    await this.deps.sessions.transaction(async (trx) => {
      if (!(await this.deps.users.createIfEmailFree(user, displayNameFor("guest@anonymous.invalid", data), trx)))
        throw new Error("an anonymous account's placeholder address was taken");
    });
    await this.deps.audit.record({ action: "user.signed_up", actorId: user.id, actorEmail: "", ip: context.ip });
    return this.deps.sessionService.start(user, "anonymous", context);
  }

  /**
   * Without autoconfirm, a sign-up never sets the account's password: the mailbox is not proven
   * yet, and whoever typed the address may not own it. The password and profile data wait on the
   * confirmation token, bound to a secret this browser keeps (`browserSecret`, set as a cookie by
   * the route); verifying the address applies them only for that browser (ADR 0014), or, for a
   * sign-up with a PKCE challenge, when its link's code is exchanged with the verifier (ADR 0046).
   */
  async signUp(
    input: {
      email: string;
      password: string;
      data: Record<string, unknown>;
      pkce?: PkceChallenge;
      /** A magic link's sign-up: its password is random and no client keeps it, so none waits on its flow. */
      passwordless?: boolean;
    },
    redirectTo: string | undefined,
    context: RequestContext,
  ): Promise<SignUpResult> {
    const { config } = this.deps;
    if (config.signupDisabled) throw new AppError("signup_disabled");
    const email = validEmail(input.email);
    await this.deps.passwordPolicy.assertAllowed(input.password, { email });
    if (config.inviteOnly && !(await this.deps.invitations.isInvited(email))) throw notInvited();

    const existing = await this.deps.users.findByEmail(email);
    if (existing?.email_confirmed_at) {
      if (config.autoconfirm) throw new AppError("user_already_exists");
      // Same answer as a new sign-up, so the form cannot tell who has an account.
      return { body: obfuscatedUser(email, input.data, this.now()) };
    }

    const now = this.now().toISOString();
    const passwordHash = await this.deps.hasher.hash(input.password);
    if (config.autoconfirm) {
      // Sign-up open to any address (invite-only off, which config.ts requires with autoconfirm).
      const user: UserRow = existing
        ? {
            ...existing,
            encrypted_password: passwordHash,
            user_metadata: JSON.stringify({ ...parseObject(existing.user_metadata), ...input.data }),
            email_confirmed_at: now,
          }
        : { ...newUser(email, passwordHash, input.data, now), email_confirmed_at: now };
      const written = await this.deps.sessions.transaction(async (trx) => {
        if (existing) {
          await this.deps.users.update(
            user.id,
            { encrypted_password: passwordHash, user_metadata: user.user_metadata, updated_at: now, email_confirmed_at: now },
            trx,
          );
        } else if (!(await this.deps.users.createIfEmailFree(user, displayNameFor(email, input.data), trx))) return false;
        await this.deps.invitations.markUsed(email, user.id, trx);
        return true;
      });
      if (!written) return this.signUp(input, redirectTo, context);
      await this.deps.audit.record({ action: "user.signed_up", actorId: user.id, actorEmail: email, ip: context.ip });
      return { body: await this.deps.sessionService.start(user, "password", context) };
    }

    // The account exists from the first sign-up on, without a password and with a name taken
    // from the address: nothing a stranger typed shows before the owner confirms.
    let user = existing;
    if (!user) {
      const created = newUser(email, null, {}, now);
      const written = await this.deps.sessions.transaction(async (trx) => {
        if (!(await this.deps.users.createIfEmailFree(created, displayNameFor(email, {}), trx))) return false;
        await this.deps.invitations.markUsed(email, created.id, trx);
        return true;
      });
      // Another sign-up of this address committed first (a double submit): go on as the second one.
      if (!written) return this.signUp(input, redirectTo, context);
      await this.deps.audit.record({ action: "user.signed_up", actorId: created.id, actorEmail: email, ip: context.ip });
      user = created;
    }
    const browserSecret = randomToken();
    // Mail goes out after the commit: a failing mail server never loses the account, and the
    // person can ask for the mail again.
    const sent = await this.deps.emailedTokens.send(user, "signup", {
      redirectTo,
      pkce: input.pkce,
      authenticationMethod: "email/signup",
      pending: { passwordHash, userMetadata: input.data, browserBindingHash: sha256(browserSecret) },
      // A client without cookies proves itself by its PKCE verifier instead (ADR 0046).
      pendingOnFlow: !input.passwordless,
    });
    // The answer goes to whoever signed up: it shows what they chose, not yet the account's.
    const asChosen = { ...sent, user_metadata: JSON.stringify({ ...parseObject(sent.user_metadata), ...input.data }) };
    return { body: presentUser(asChosen), browserSecret };
  }
}

/** What Supabase Auth answers for a sign-up of an existing address: a user that does not exist. */
function obfuscatedUser(email: string, data: Record<string, unknown>, now: Date): Record<string, unknown> {
  const iso = now.toISOString();
  return {
    id: randomUUID(),
    aud: "authenticated",
    role: "",
    email,
    phone: "",
    confirmation_sent_at: iso,
    app_metadata: { provider: "email", providers: ["email"] },
    user_metadata: data,
    identities: [],
    created_at: iso,
    updated_at: iso,
    is_anonymous: false,
  };
}
