import { randomUUID } from "node:crypto";
import type { FlowStateRow, UserRow } from "../../../db/schema";
import { AppError } from "../../../errors";
import type { AccountChanges } from "./account-notices";
import { displayNameFor, localeOf } from "./account-rules";
import type { AuthAuditLog } from "./audit-log";
import { parseObject, type SessionJson } from "./auth.presenter";
import type { OneTimeTokensRepository } from "./one-time-tokens.repository";
import { pkceVerifierMatches, sha256 } from "./secrets";
import { notInvited, type RequestContext, type SessionService } from "./session.service";
import type { SessionsRepository } from "./sessions.repository";
import type { UsersRepository } from "./users.repository";

const flowStateTtlMs = 300_000;

/**
 * PKCE flows (`grant_type=pkce`): a link or a provider sign-in ends in an auth code instead of a
 * session, and the client trades it, with the verifier only it has, for the session.
 */
export class PkceFlowsService {
  constructor(
    private readonly deps: {
      users: UsersRepository;
      sessions: SessionsRepository;
      tokens: OneTimeTokensRepository;
      sessionService: SessionService;
      changes: AccountChanges;
      audit: AuthAuditLog;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** PKCE: trades the auth code from a link's redirect, plus the verifier only the client has, for a session. */
  async exchangeAuthCode(input: { authCode: string; codeVerifier: string }, context: RequestContext): Promise<SessionJson> {
    if (!input.authCode || !input.codeVerifier)
      throw new AppError("validation_failed", {
        message: "invalid request: both auth code and code verifier should be non-empty",
      });
    const flow = await this.deps.tokens.findFlowStateByAuthCode(sha256(input.authCode));
    if (!flow) throw new AppError("flow_state_not_found");
    if (this.now().getTime() - Date.parse(flow.auth_code_issued_at ?? flow.created_at) > flowStateTtlMs) {
      await this.deps.tokens.deleteFlowState(flow.id);
      throw new AppError("flow_state_expired");
    }
    if (!pkceVerifierMatches(input.codeVerifier, flow.code_challenge, flow.code_challenge_method)) {
      // The code reached someone without the sign-up's verifier: its choices never stand (ADR 0046).
      if (flow.pending_password_hash) await this.deps.tokens.dropPendingOfFlow(flow.id);
      throw new AppError("bad_code_verifier");
    }
    if (!(await this.deps.tokens.deleteFlowState(flow.id))) throw new AppError("flow_state_not_found");
    const found = await this.deps.users.findById(flow.user_id);
    if (!found) throw new AppError("flow_state_not_found");
    if (!(await this.deps.sessionService.isAllowedIn(found))) throw notInvited();
    const user = await this.applySignUpChoices(found, flow, context);
    return this.deps.sessionService.start(user, amrOfFlow(flow.authentication_method), context);
  }

  /**
   * A sign-up made with this flow's challenge, whose link proved the mailbox: the verifier now
   * proves the client that signed up, so the password and profile data it chose become the
   * account's, as a sign-up confirmed in its own browser does (ADR 0014, ADR 0046).
   */
  private async applySignUpChoices(user: UserRow, flow: FlowStateRow, context: RequestContext): Promise<UserRow> {
    if (!flow.pending_password_hash || user.email_confirmed_at === null) return user;
    const now = this.now().toISOString();
    const chosen = parseObject(flow.pending_user_metadata ?? "{}");
    const metadata = { ...parseObject(user.user_metadata), ...chosen };
    const updated: UserRow = {
      ...user,
      encrypted_password: flow.pending_password_hash,
      user_metadata: JSON.stringify(metadata),
      // The language chosen at sign-up, as a sign-up confirmed in its own browser keeps it.
      locale: localeOf(metadata),
      updated_at: now,
    };
    await this.deps.sessions.transaction(async (trx) => {
      await this.deps.users.update(
        user.id,
        {
          encrypted_password: updated.encrypted_password,
          user_metadata: updated.user_metadata,
          locale: updated.locale,
          updated_at: now,
        },
        trx,
      );
      await this.deps.users.setDisplayName(user.id, displayNameFor(user.email, chosen), now, trx);
    });
    this.deps.changes.profileChanged(user.id);
    await this.deps.audit.record({
      action: "user.signup_choices_applied",
      actorId: user.id,
      actorEmail: user.email,
      ip: context.ip,
    });
    return updated;
  }

  /** After a PKCE link is opened: an auth code for the flow, to be exchanged with the verifier. */
  async issueAuthCode(flowStateId: string): Promise<string> {
    const authCode = randomUUID();
    await this.deps.tokens.issueAuthCode(flowStateId, sha256(authCode), this.now().toISOString());
    return authCode;
  }
}

/** The `amr` method of a session a PKCE flow starts: a recovery, a provider sign-in (ADR 0034), else an e-mailed link. */
function amrOfFlow(authenticationMethod: string): string {
  if (["recovery", "oauth", "sso/saml"].includes(authenticationMethod)) return authenticationMethod;
  return "otp";
}
