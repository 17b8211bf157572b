import type { AuthConfig } from "../../../config";
import type { UserRow, UserRowUpdate } from "../../../db/schema";
import { displayNameFor, localeOf, mergeMetadata, newUser, validEmail } from "../core/account-rules";
import type { AccountChanges } from "../core/account-notices";
import type { EmailedTokensService, TokenKind } from "../core/emailed-tokens.service";
import type { AuthAuditLog } from "../core/audit-log";
import type { InvitationAdministration } from "../core/invitation-ledger";
import { parseObject, presentUser } from "../core/auth.presenter";
import type { OneTimeTokensRepository } from "../core/one-time-tokens.repository";
import type { PasswordHasher } from "../password/password-hasher";
import type { PasswordPolicy } from "../password/password-policy";
import type { SessionsRepository } from "../core/sessions.repository";
import type { SigningKeys } from "../core/signing-keys";
import type { UsersRepository } from "../core/users.repository";
import { AppError } from "../../../errors";
import { isUuid } from "../../../lib/uuid";

/** Who called the admin API: the admin token's role, and its subject when it has one (for the audit log). */
export interface AdminCaller {
  role: string;
  sub: string | undefined;
}

export interface AdminContext {
  caller: AdminCaller;
  ip: string | null;
}

/** What an operator may set on an account (create and update take the same attributes). */
export interface UserAttributes {
  email?: string | undefined;
  password?: string | undefined;
  emailConfirm?: boolean | undefined;
  userMetadata?: Record<string, unknown> | undefined;
  appMetadata?: Record<string, unknown> | undefined;
  role?: string | undefined;
  /** `none`, or a Go duration such as `24h` or `1h30m`. */
  banDuration?: string | undefined;
}

export interface UserPage {
  users: Record<string, unknown>[];
  total: number;
  page: number;
  perPage: number;
}

export interface GenerateLinkInput {
  type: string;
  email: string;
  password?: string | undefined;
  data?: Record<string, unknown> | undefined;
  newEmail?: string | undefined;
  redirectTo?: string | undefined;
}

/** The invitation list records operator actions under this name. */
const invitedBy = "admin";
const defaultPerPage = 50;
const maxPerPage = 1000;
/** Pending links that must not outlive a password the operator set. */
const linksEndedByPasswordChange = ["recovery", "magiclink", "email_change", "reauthentication"];

const emailExists = () => new AppError("email_exists");

/**
 * The Supabase Auth admin API: operators (holders of a service-role token) manage accounts
 * directly. Accounts they create or invite go on the invitation list, because an operator adding
 * someone means they want that person in; an address change moves the invitation along.
 */
export class AdminService {
  constructor(
    private readonly deps: {
      config: AuthConfig;
      users: UsersRepository;
      sessions: SessionsRepository;
      tokens: OneTimeTokensRepository;
      emailedTokens: EmailedTokensService;
      changes: AccountChanges;
      keys: SigningKeys;
      invitations: InvitationAdministration;
      hasher: PasswordHasher;
      passwordPolicy: PasswordPolicy;
      audit: AuthAuditLog;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Resolves `Authorization: Bearer <service-role JWT>`; a token bound to a session needs that session alive. */
  async authorize(authorization: string | undefined): Promise<AdminCaller> {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
    if (!match?.[1]) throw new AppError("no_authorization");
    const claims = await this.deps.keys.verifyAdminToken(match[1], this.now());
    if (claims.session_id !== undefined && !(await this.deps.sessions.findById(claims.session_id))) {
      throw new AppError("session_not_found");
    }
    return { role: claims.role, sub: claims.sub };
  }

  /** Oldest first. Empty parameters mean the defaults, as auth-js sends them empty. */
  async listUsers(query: {
    page?: string | undefined;
    perPage?: string | undefined;
    filter?: string | undefined;
  }): Promise<UserPage> {
    const page = pageParameter(query.page, 1);
    const perPage = Math.min(pageParameter(query.perPage, defaultPerPage), maxPerPage);
    const { users, total } = await this.deps.users.page({
      offset: (page - 1) * perPage,
      limit: perPage,
      filter: query.filter?.trim() || undefined,
    });
    return { users: users.map(presentUser), total, page, perPage };
  }

  async getUser(id: string): Promise<Record<string, unknown>> {
    return presentUser(await this.findUser(id));
  }

  /** No e-mail is sent. Without a password the account has none: it signs in by link, or the operator sets one. */
  async createUser(input: UserAttributes, context: AdminContext): Promise<Record<string, unknown>> {
    if (!input.email)
      throw new AppError("validation_failed", { message: "Cannot create a user without either an email or phone" });
    const email = validEmail(input.email);
    if (await this.deps.users.findByEmail(email)) throw emailExists();
    // Stricter than Supabase Auth, which checks an operator's password only on update: a member
    // keeps what the operator set, so the same policy applies (ADR 0015).
    if (input.password) await this.deps.passwordPolicy.assertAllowed(input.password, { email });
    const now = this.now().toISOString();
    const bannedUntil = input.banDuration ? this.banEnd(input.banDuration) : null;
    const data = input.userMetadata ?? {};
    const base = newUser(email, input.password ? await this.deps.hasher.hash(input.password) : null, data, now);
    const user: UserRow = {
      ...base,
      role: input.role || base.role,
      app_metadata: input.appMetadata
        ? JSON.stringify(mergeMetadata(parseObject(base.app_metadata), input.appMetadata))
        : base.app_metadata,
      email_confirmed_at: input.emailConfirm ? now : null,
      banned_until: bannedUntil,
    };
    await this.admit(email);
    await this.createAccount(user, data, { invitationUsed: true });
    await this.record("admin.user_created", user, context);
    return presentUser(user);
  }

  /**
   * Applies the changes at once: a new address needs no confirmation, and a new password or a
   * ban ends every session. Metadata is merged, a `null` value removing its key.
   */
  async updateUser(id: string, input: UserAttributes, context: AdminContext): Promise<Record<string, unknown>> {
    const user = await this.findUser(id);
    const now = this.now().toISOString();
    const patch: UserRowUpdate = {};

    if (input.email) {
      const email = validEmail(input.email);
      if (email !== user.email) {
        if (await this.deps.users.findByEmail(email)) throw emailExists();
        Object.assign(patch, { email, email_change: null, email_change_sent_at: null });
      }
    }
    if (input.password !== undefined) {
      await this.deps.passwordPolicy.assertAllowed(input.password, { email: patch.email ?? user.email });
      patch.encrypted_password = await this.deps.hasher.hash(input.password);
    }
    if (input.banDuration) patch.banned_until = this.banEnd(input.banDuration);
    if (input.role) patch.role = input.role;
    if (input.emailConfirm && !user.email_confirmed_at) patch.email_confirmed_at = now;
    if (input.appMetadata) patch.app_metadata = JSON.stringify(mergeMetadata(parseObject(user.app_metadata), input.appMetadata));
    let displayName: string | undefined;
    if (input.userMetadata) {
      const userMetadata = mergeMetadata(parseObject(user.user_metadata), input.userMetadata);
      patch.user_metadata = JSON.stringify(userMetadata);
      if ("full_name" in input.userMetadata) displayName = displayNameFor(patch.email ?? user.email, userMetadata);
      // The service role's metadata is taken as Supabase Auth takes it; a language not offered is no choice.
      if ("locale" in input.userMetadata) patch.locale = localeOf(userMetadata);
    }

    const updated: UserRow = { ...user, ...patch, updated_at: now };
    const banned = patch.banned_until ? Date.parse(patch.banned_until) > this.now().getTime() : false;
    const passwordChanged = patch.encrypted_password !== undefined;
    await this.deps.sessions.transaction(async (trx) => {
      await this.deps.users.update(user.id, { ...patch, updated_at: now }, trx);
      if (displayName !== undefined) await this.deps.users.setDisplayName(user.id, displayName, now, trx);
      if (passwordChanged || banned) await this.deps.sessions.deleteAllOfUser(user.id, {}, trx);
      if (passwordChanged) await this.deps.tokens.deleteOfUser(user.id, linksEndedByPasswordChange, trx);
      // A pending self-service change would otherwise switch the address back when its link is opened.
      if (patch.email) await this.deps.tokens.deleteOfUser(user.id, ["email_change"], trx);
    });
    if (displayName !== undefined) this.deps.changes.profileChanged(user.id);
    if (patch.email) await this.moveInvitation(user, patch.email);
    if (passwordChanged) this.deps.changes.announce(user, { kind: "password_changed" });
    if (patch.email) this.deps.changes.announce(user, { kind: "email_changed", newEmail: patch.email });
    await this.record(banned ? "admin.user_banned" : "admin.user_updated", updated, context, { changed: Object.keys(patch) });
    return presentUser(updated);
  }

  /** A hard delete: sessions, tokens and the profile go with the account. The invitation stays. */
  async deleteUser(id: string, context: AdminContext): Promise<void> {
    const user = await this.findUser(id);
    await this.deps.users.delete(user.id);
    await this.record("admin.user_deleted", user, context);
  }

  /**
   * The link and code an e-mail would carry, returned instead of sent. `signup` and `invite`
   * create the account when missing; `magiclink` for a missing account becomes `signup`.
   */
  async generateLink(input: GenerateLinkInput, context: AdminContext): Promise<Record<string, unknown>> {
    const email = validEmail(input.email);
    const data = input.data ?? {};
    let user = await this.deps.users.findByEmail(email);
    const type = input.type === "magiclink" && !user ? "signup" : input.type;
    let kind: TokenKind;

    switch (type) {
      case "signup":
        if (user?.email_confirmed_at) throw emailExists();
        if (user) {
          if (input.data) user = await this.mergeUserMetadata(user, input.data);
        } else {
          // A magic link for a new address signs up without a password: the person signs in by link.
          const passwordHash = input.type === "signup" ? await this.hashSignupPassword(input.password, email) : null;
          await this.admit(email);
          user = await this.createAccount(newUser(email, passwordHash, data, this.now().toISOString()), data, {
            invitationUsed: true,
          });
        }
        kind = "signup";
        break;
      case "invite":
        if (user?.email_confirmed_at) throw emailExists();
        await this.admit(email);
        user ??= await this.createAccount(newUser(email, null, data, this.now().toISOString()), data, { invitationUsed: false });
        kind = "invite";
        break;
      case "magiclink":
      case "recovery":
        if (!user) throw userNotFound();
        kind = type;
        break;
      case "email_change_current":
      case "email_change_new": {
        if (!user) throw userNotFound();
        // One confirmation, at the new address: Memory Box has no separate link for the current one.
        const newEmail = validEmail(input.newEmail ?? "");
        if (await this.deps.users.findByEmail(newEmail)) throw emailExists();
        await this.admit(newEmail);
        user = { ...user, email_change: newEmail };
        kind = "email_change";
        break;
      }
      default:
        throw new AppError("validation_failed", { message: `Invalid email action link type requested: ${type}` });
    }

    const issued = await this.deps.emailedTokens.issue(user, kind, { redirectTo: input.redirectTo });
    await this.record("admin.link_generated", issued.user, context, { type });
    return {
      ...presentUser(issued.user),
      action_link: issued.link,
      email_otp: issued.code,
      hashed_token: issued.linkToken,
      verification_type: type,
      redirect_to: issued.redirectTo,
    };
  }

  /** Puts the address on the invitation list and e-mails an invite link, creating the account when missing. */
  async inviteUser(
    input: { email: string; data?: Record<string, unknown> | undefined; redirectTo?: string | undefined },
    context: AdminContext,
  ): Promise<Record<string, unknown>> {
    const email = validEmail(input.email);
    const existing = await this.deps.users.findByEmail(email);
    if (existing?.email_confirmed_at) throw emailExists();
    await this.admit(email);
    const data = input.data ?? {};
    const user =
      existing ??
      (await this.createAccount(newUser(email, null, data, this.now().toISOString()), data, { invitationUsed: false }));
    const invited = await this.deps.emailedTokens.send(user, "invite", { redirectTo: input.redirectTo });
    await this.record("admin.user_invited", invited, context);
    return presentUser(invited);
  }

  private async findUser(id: string): Promise<UserRow> {
    if (!isUuid(id)) throw new AppError("validation_failed", { status: 404, message: "user_id must be an UUID" });
    const user = await this.deps.users.findById(id);
    if (!user) throw userNotFound();
    return user;
  }

  /**
   * Writes the account and its profile. The invitation counts as used once the account is
   * ready; an invited person uses it by opening the invite link (EmailVerificationService.verify).
   */
  private async createAccount(
    user: UserRow,
    data: Record<string, unknown>,
    options: { invitationUsed: boolean },
  ): Promise<UserRow> {
    await this.deps.sessions.transaction(async (trx) => {
      await this.deps.users.create(user, displayNameFor(user.email, data), trx);
      if (options.invitationUsed) await this.deps.invitations.markUsed(user.email, user.id, trx);
    });
    return user;
  }

  private async mergeUserMetadata(user: UserRow, changes: Record<string, unknown>): Promise<UserRow> {
    const now = this.now().toISOString();
    const metadata = mergeMetadata(parseObject(user.user_metadata), changes);
    const locale = "locale" in changes ? { locale: localeOf(metadata) } : {};
    const updated = { ...user, user_metadata: JSON.stringify(metadata), ...locale, updated_at: now };
    await this.deps.users.update(user.id, { user_metadata: updated.user_metadata, ...locale, updated_at: now });
    return updated;
  }

  private async admit(email: string): Promise<void> {
    await this.deps.invitations.invite([email], invitedBy);
  }

  /**
   * An operator's address change keeps the member in: the invitation moves to the new address,
   * so the old one cannot be used to sign up again. A member who was not on the list stays off it.
   */
  private async moveInvitation(user: UserRow, newEmail: string): Promise<void> {
    const invitation = await this.deps.invitations.get(user.email);
    if (!invitation) return;
    await this.admit(newEmail);
    await this.deps.invitations.markUsed(newEmail, user.id);
    // An owner stays one: the role goes with the address before the old one is taken off.
    await this.deps.invitations.setRole(newEmail, invitation.role, invitedBy);
    await this.deps.invitations.revoke(user.email, invitedBy);
  }

  /** Where a ban ends; null lifts it (`none`, or a duration that is not positive). */
  private banEnd(banDuration: string): string | null {
    if (banDuration === "none") return null;
    const milliseconds = parseGoDuration(banDuration);
    return milliseconds > 0 ? new Date(this.now().getTime() + milliseconds).toISOString() : null;
  }

  private async hashSignupPassword(password: string | undefined, email: string): Promise<string> {
    if (!password) throw new AppError("validation_failed", { message: "Signup requires a valid password" });
    await this.deps.passwordPolicy.assertAllowed(password, { email });
    return this.deps.hasher.hash(password);
  }

  private async record(
    action: string,
    user: UserRow,
    context: AdminContext,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    await recordAdminAction(this.deps.audit, action, context, { user_id: user.id, email: user.email, ...detail }, this.now());
  }
}

/** An audit entry for something done with the admin API: who held the token, from where, on what. */
export async function recordAdminAction(
  audit: AuthAuditLog,
  action: string,
  context: AdminContext,
  detail: Record<string, unknown>,
  now: Date,
): Promise<void> {
  await audit.record(
    { action, actorId: context.caller.sub ?? null, ip: context.ip, detail: { role: context.caller.role, ...detail } },
    now,
  );
}

const userNotFound = () => new AppError("user_not_found");

function pageParameter(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  // Nine digits keep (page - 1) * per_page a safe integer.
  if (!/^\d{1,9}$/.test(raw.trim()) || Number(raw) < 1)
    throw new AppError("validation_failed", { message: `Bad Pagination Parameters: "${raw}" is not a positive whole number` });
  return Number(raw);
}

const durationUnits: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, μs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
/** Go's time.Duration ends at about 292 years. */
const maxDurationMs = 2 ** 63 / 1e6;

/** Go's `time.ParseDuration`, in milliseconds: `300ms`, `-1.5h`, `2h45m`; a bare `0` too. */
export function parseGoDuration(text: string): number {
  const invalid = new AppError("validation_failed", {
    message: `invalid format for ban duration: time: invalid duration ${JSON.stringify(text)}`,
  });
  const sign = text.startsWith("-") ? -1 : 1;
  const body = text.replace(/^[-+]/, "");
  if (body === "0") return 0;
  const parts = [...body.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/gy)];
  if (body === "" || parts.map(([part]) => part).join("") !== body) throw invalid;
  const milliseconds = parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * durationUnits[unit!]!, 0);
  if (milliseconds > maxDurationMs) throw invalid;
  return sign * milliseconds;
}
