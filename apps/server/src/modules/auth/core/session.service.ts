import { randomUUID } from "node:crypto";
import { FRAME_CLIENT_ID } from "@memory-box/contract";
import type { Transaction } from "kysely";
import type { AuthConfig } from "../../../config";
import type { Database, UserRow } from "../../../db/schema";
import type { AuthAuditLog } from "./audit-log";
import type { InvitationCheck } from "./invitation-ledger";
import { shownEmail } from "./account-rules";
import { appMetadataOf, parseObject, presentUser, type SessionJson } from "./auth.presenter";
import { childRefreshToken, randomToken, sha256 } from "./secrets";
import type { SessionsRepository } from "./sessions.repository";
import type { AccessTokenClaims, AmrEntry, SigningKeys } from "./signing-keys";
import type { UsersRepository } from "./users.repository";
import { AppError } from "../../../errors";
import { hasVerifiedFactor, secondStepNeeded } from "./factor-summary";

/** Who is asking: recorded on sessions and in the audit log. */
export interface RequestContext {
  ip: string | null;
  userAgent: string | null;
}

/** The signed-in caller of a bearer-authenticated request. */
export interface Caller {
  user: UserRow;
  claims: AccessTokenClaims;
}

/** A session that has not ended, with its account and whether the account's address is invited. */
export interface LiveSession {
  user: UserRow;
  invited: boolean;
  /** The OAuth 2.1 client the session was issued to (ADR 0075), or null for a member's own sign-in. */
  oauthClientId: string | null;
}

/** A session issued through an OAuth 2.1 client (ADR 0075): which client, the granted scopes, the authorization it came from. */
export interface ClientGrant {
  clientId: string;
  scope: string;
  authorizationId: string | null;
  /** The new session's id, when the caller records it in the same transaction (a paired frame's, ADR 0076). */
  sessionId?: string;
}

/** Whether a route lets in a session issued to an OAuth 2.1 client; by default it does not (ADR 0075). */
export interface ClientSessionPolicy {
  allowClientSessions?: boolean;
  /**
   * A paired frame's session (ADR 0076) too, which `allowClientSessions` alone does not let in: a
   * frame reads nothing of the account. For doors that rule on client sessions themselves.
   */
  allowFrameSessions?: boolean;
}

/** An OAuth 2.1 client's session where only the member's own sign-ins may go (ADR 0075). */
export const clientSessionRefused = () => new AppError("oauth_client_session_not_allowed");

/**
 * Finds a session if it is still live: the per-request read behind every bearer token, kept
 * outside this module (`plugins/member-check.ts`) so the product API can read what it needs
 * with it in the same query. This service applies its rules to what is found.
 */
export interface SessionLookup<Session extends LiveSession = LiveSession> {
  findLive(sessionId: string): Promise<Session | undefined>;
}

/** How far down its chain a token presented again may find the session's usable token. */
const maxReuseChainSteps = 20;

export const notInvited = () => new AppError("email_not_invited");

/**
 * Sessions: issuing them, rotating refresh tokens, ending them, and deciding whether a bearer
 * token still belongs to a live session of an invited member.
 */
export class SessionService {
  constructor(
    private readonly deps: {
      config: AuthConfig;
      users: UsersRepository;
      sessionLookup: SessionLookup;
      sessions: SessionsRepository;
      keys: SigningKeys;
      invitations: InvitationCheck;
      audit: AuthAuditLog;
      /** Derives each refresh token's successor (`childRefreshToken`). */
      refreshTokenKey: Buffer;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /**
   * Starts a session for a user who just proved who they are (password, e-mailed link, code); at
   * aal2 when that proof was already two factors (a passkey that verified the person, ADR 0025).
   */
  async start(
    user: UserRow,
    method: string,
    context: RequestContext,
    trx?: Transaction<Database>,
    aal: "aal1" | "aal2" = "aal1",
    oauth?: ClientGrant,
  ): Promise<SessionJson> {
    const now = this.now();
    const sessionId = oauth?.sessionId ?? randomUUID();
    const amr: AmrEntry[] = [{ method, timestamp: Math.floor(now.getTime() / 1000) }];
    const refreshToken = randomToken();
    const write = async (executor: Transaction<Database>) => {
      await this.deps.sessions.create(
        {
          id: sessionId,
          userId: user.id,
          aal,
          amr: JSON.stringify(amr),
          userAgent: context.userAgent,
          ip: context.ip,
          ...(oauth ? { oauth: { clientId: oauth.clientId, scope: oauth.scope, authorizationId: oauth.authorizationId } } : {}),
        },
        now.toISOString(),
        executor,
      );
      await this.deps.sessions.addRefreshToken(
        { id: randomUUID(), tokenHash: sha256(refreshToken), sessionId, parentId: null },
        now.toISOString(),
        executor,
      );
      await this.deps.users.update(user.id, { last_sign_in_at: now.toISOString() }, executor);
    };
    if (trx) await write(trx);
    // Lost only in a power cut, which would cost this device a sign-in.
    else await this.deps.sessions.bookkeepingTransaction(write);
    const signedIn = { ...user, last_sign_in_at: now.toISOString() };
    return this.sessionJson(signedIn, sessionId, amr, aal, refreshToken, now, oauth);
  }

  /**
   * The caller proved a second factor (`method`, e.g. `totp`) in their session: it becomes aal2
   * with a fresh refresh token; the account's other aal1 sessions end (ADR 0022). Inside `trx`,
   * which also records what was proven.
   */
  async raiseToAal2(
    caller: Caller,
    method: string,
    trx: Transaction<Database>,
  ): Promise<(user: UserRow) => Promise<SessionJson>> {
    const now = this.now();
    const sessionId = caller.claims.session_id;
    const current = await this.deps.sessions.findById(sessionId, trx);
    if (!current) throw new AppError("session_not_found");
    const earlier = (JSON.parse(current.amr) as AmrEntry[]).filter((entry) => entry.method !== method);
    const amr: AmrEntry[] = [{ method, timestamp: Math.floor(now.getTime() / 1000) }, ...earlier];
    const refreshToken = randomToken();
    await this.deps.sessions.raiseToAal2(
      { id: sessionId, userId: caller.user.id, amr: JSON.stringify(amr) },
      { id: randomUUID(), tokenHash: sha256(refreshToken) },
      now.toISOString(),
      trx,
    );
    return (user) => this.sessionJson(user, sessionId, amr, "aal2", refreshToken, now);
  }

  /**
   * Exchanges a refresh token for a new pair. Rotation with reuse detection: a token works once;
   * presented again within the reuse interval (two tabs refreshing at once, a retried request) it
   * yields the token it was already exchanged for (or the one that replaced that), so a session
   * stays one chain; presented later it is treated as stolen and the whole session ends.
   *
   * `clientId` is the OAuth 2.1 client asking (`POST /oauth/token`), or null at `POST /token`: a
   * session refreshes only where it was issued, a client's at its own client (ADR 0075).
   */
  async refresh(presented: string, context: RequestContext, clientId: string | null = null): Promise<SessionJson> {
    const now = this.now();
    const nowIso = now.toISOString();
    const found = await this.deps.sessions.findForRotation(sha256(presented));
    if (!found || (found.oauth?.clientId ?? null) !== clientId) {
      if (clientId !== null) throw oauthInvalidGrant("Invalid refresh token");
      throw new AppError("refresh_token_not_found");
    }
    const { token, user } = found;
    const session = { id: token.session_id, amr: found.amr };
    this.assertNotBanned(user, 400);
    if (!this.admits(found.invited)) {
      await this.deps.sessions.delete(session.id);
      throw notInvited();
    }

    // Lost only in a power cut: the device would present a token the database no longer knows and sign in again.
    const outcome = await this.deps.sessions.bookkeepingTransaction(async (trx) => {
      const revokedNow = await this.deps.sessions.revokeRefreshToken(token.id, nowIso, trx);
      if (!revokedNow) {
        const revokedAt = Date.parse(token.revoked_at ?? nowIso);
        const withinReuseInterval = now.getTime() - revokedAt <= this.deps.config.refreshTokenReuseIntervalSeconds * 1000;
        if (!withinReuseInterval) {
          await this.deps.sessions.delete(session.id, trx);
          return "reused" as const;
        }
      }
      const child = revokedNow
        ? await this.addChild(presented, token.id, session.id, nowIso, trx)
        : await this.issuedDescendant(presented, session.id, trx);
      if (child === undefined) return "forked" as const;
      await this.deps.sessions.markRefreshed(session.id, context, nowIso, trx);
      // In the same transaction: one durable commit per refresh, not two.
      await this.deps.audit.record(
        {
          action: "token.refreshed",
          actorId: user.id,
          actorEmail: user.email,
          ip: context.ip,
          detail: { session_id: session.id },
        },
        now,
        trx,
      );
      return child;
    });

    // A chain this server did not derive (issued before tokens were derived): the device signs in again.
    if (outcome === "forked") throw new AppError("refresh_token_already_used");
    if (outcome === "reused") {
      await this.deps.audit.record({
        action: "token.reuse_detected",
        actorId: user.id,
        actorEmail: user.email,
        ip: context.ip,
        detail: { session_id: session.id },
      });
      throw new AppError("refresh_token_already_used");
    }
    return this.sessionJson(
      user,
      session.id,
      JSON.parse(session.amr) as AmrEntry[],
      found.aal === "aal2" ? "aal2" : "aal1",
      outcome,
      now,
      found.oauth ?? undefined,
    );
  }

  private async addChild(parent: string, parentId: string, sessionId: string, now: string, trx: Transaction<Database>) {
    const child = childRefreshToken(this.deps.refreshTokenKey, parent);
    await this.deps.sessions.addRefreshToken({ id: randomUUID(), tokenHash: sha256(child), sessionId, parentId }, now, trx);
    return child;
  }

  /** The session's usable token, if `presented` is its ancestor: children are derived, so the chain is walked by hashing. */
  private async issuedDescendant(presented: string, sessionId: string, trx: Transaction<Database>): Promise<string | undefined> {
    const active = await this.deps.sessions.findActiveRefreshToken(sessionId, trx);
    if (!active) return undefined;
    let token = presented;
    // Within one reuse interval a chain grows by a few links at most.
    for (let step = 0; step < maxReuseChainSteps; step += 1) {
      token = childRefreshToken(this.deps.refreshTokenKey, token);
      if (sha256(token) === active.token_hash) return token;
    }
    return undefined;
  }

  /**
   * `global` ends every session of the user, `local` this one, `others` all but this one. Ending
   * other devices' sessions of a member with a second factor needs a session that proved it: from
   * one that did not, `others` changes nothing and `global` ends only this session (the caller is
   * signed out, as asked), both refused with `insufficient_aal`.
   */
  async logout(caller: Caller, scope: "global" | "local" | "others", context: RequestContext): Promise<void> {
    const sessionId = caller.claims.session_id;
    if (scope !== "local" && caller.claims.aal !== "aal2" && hasVerifiedFactor(caller.user.mfa_factors)) {
      if (scope === "global") await this.logout(caller, "local", context);
      throw secondStepNeeded();
    }
    if (scope === "local") await this.deps.sessions.delete(sessionId);
    else await this.deps.sessions.deleteAllOfUser(caller.user.id, scope === "others" ? { keepSessionId: sessionId } : {});
    await this.deps.audit.record({
      action: "user.signed_out",
      actorId: caller.user.id,
      actorEmail: caller.user.email,
      ip: context.ip,
      detail: { scope },
    });
  }

  /**
   * Resolves `Authorization: Bearer <jwt>` to a caller, or throws the error auth-js expects.
   * The session row is checked on every request, so a sign-out or a revoked invitation takes
   * effect on the next request, not when the token expires.
   */
  async authenticate(authorization: string | undefined, policy: ClientSessionPolicy = {}): Promise<Caller> {
    return (await this.authenticateWith(authorization, this.deps.sessionLookup, policy)).caller;
  }

  /** `authenticate`, reading the session with `lookup`, whose finding comes back with the caller. */
  async authenticateWith<Session extends LiveSession>(
    authorization: string | undefined,
    lookup: SessionLookup<Session>,
    policy: ClientSessionPolicy = {},
  ): Promise<{ caller: Caller; session: Session }> {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization ?? "");
    if (!match?.[1]) throw new AppError("no_authorization");
    const claims = await this.deps.keys.verifyAccessToken(match[1], this.now());
    const session = await lookup.findLive(claims.session_id);
    if (!session || session.user.id !== claims.sub) {
      // The session ended (or was never this account's): whether the account exists decides the error.
      if (await this.deps.users.findById(claims.sub)) throw new AppError("session_not_found");
      throw new AppError("user_not_found", { status: 403, message: "User from sub claim in JWT does not exist" });
    }
    this.admitLive(session);
    if (session.oauthClientId !== null && !policy.allowClientSessions) throw clientSessionRefused();
    if (session.oauthClientId === FRAME_CLIENT_ID && !policy.allowFrameSessions) throw clientSessionRefused();
    return { caller: { user: session.user, claims }, session };
  }

  /**
   * A session named by something other than an access token (a photo access cookie): let in only
   * while it is live, its account not banned and still invited, as a bearer token would be.
   */
  async admitSession<Session extends LiveSession>(sessionId: string, lookup: SessionLookup<Session>): Promise<Session> {
    const session = await lookup.findLive(sessionId);
    if (!session) throw new AppError("session_not_found");
    this.admitLive(session);
    return session;
  }

  private admitLive(session: LiveSession): void {
    this.assertNotBanned(session.user, 403);
    if (!this.admits(session.invited)) throw notInvited();
  }

  /**
   * The door every first-factor sign-in passes once the secret checked out (password, passkey):
   * an invited address, not banned, its mailbox proven.
   */
  async assertMaySignIn(user: UserRow): Promise<void> {
    if (!(await this.isAllowedIn(user))) throw notInvited();
    this.assertNotBanned(user, 400);
    if (!user.email_confirmed_at) throw new AppError("email_not_confirmed");
  }

  /** Members are invited addresses, unless the operator turned invite-only off. */
  async isAllowedIn(user: Pick<UserRow, "email">): Promise<boolean> {
    return !this.deps.config.inviteOnly || this.deps.invitations.isInvited(user.email);
  }

  /** The same rule for a lookup that already joined the invitation list. */
  private admits(invited: boolean): boolean {
    return !this.deps.config.inviteOnly || invited;
  }

  assertNotBanned(user: UserRow, status: 400 | 403): void {
    if (user.banned_until && Date.parse(user.banned_until) > this.now().getTime()) throw new AppError("user_banned", { status });
  }

  private async sessionJson(
    user: UserRow,
    sessionId: string,
    amr: AmrEntry[],
    aal: "aal1" | "aal2",
    refreshToken: string,
    now: Date,
    oauth?: Pick<ClientGrant, "clientId" | "scope">,
  ): Promise<SessionJson> {
    const ttl = this.deps.config.accessTokenTtlSeconds;
    // A paired frame's tokens say nothing of the member who paired it (ADR 0076): no address, no profile.
    const frame = oauth?.clientId === FRAME_CLIENT_ID;
    const { token, expiresAt } = await this.deps.keys.signAccessToken(
      {
        sub: user.id,
        aud: user.aud,
        role: user.role,
        email: frame ? "" : shownEmail(user),
        phone: "",
        aal,
        amr,
        session_id: sessionId,
        is_anonymous: user.anonymous_since !== null,
        app_metadata: frame ? {} : appMetadataOf(user),
        user_metadata: frame ? {} : parseObject(user.user_metadata),
        ...(oauth ? { client_id: oauth.clientId, scope: oauth.scope } : {}),
      },
      ttl,
      now,
    );
    return {
      access_token: token,
      token_type: "bearer",
      expires_in: ttl,
      expires_at: expiresAt,
      refresh_token: refreshToken,
      user: frame ? { id: user.id } : presentUser(user),
      ...(oauth ? { scope: oauth.scope } : {}),
    };
  }
}

/** The OAuth error of the token endpoint (RFC 6749 5.2), in our envelope too. */
export function oauthInvalidGrant(description: string): AppError {
  return new AppError("invalid_grant", {
    message: description,
    extra: { error: "invalid_grant", error_description: description },
  });
}
