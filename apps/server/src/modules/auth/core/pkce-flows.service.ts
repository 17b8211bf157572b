import { randomUUID } from "node:crypto";
import { AppError } from "../../../errors";
import type { SessionJson } from "./auth.presenter";
import type { OneTimeTokensRepository } from "./one-time-tokens.repository";
import { pkceVerifierMatches, sha256 } from "./secrets";
import { notInvited, type RequestContext, type SessionService } from "./session.service";
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
      tokens: OneTimeTokensRepository;
      sessionService: SessionService;
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
    if (!pkceVerifierMatches(input.codeVerifier, flow.code_challenge, flow.code_challenge_method))
      throw new AppError("bad_code_verifier");
    if (!(await this.deps.tokens.deleteFlowState(flow.id))) throw new AppError("flow_state_not_found");
    const user = await this.deps.users.findById(flow.user_id);
    if (!user) throw new AppError("flow_state_not_found");
    if (!(await this.deps.sessionService.isAllowedIn(user))) throw notInvited();
    return this.deps.sessionService.start(user, amrOfFlow(flow.authentication_method), context);
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
