import { normalizeIP } from "@fastify/rate-limit";
import type { FastifyRequest } from "fastify";
import type { AuthRateLimits } from "../../../config";
import { AppError } from "../../../errors";
import type { PkceChallenge } from "./emailed-tokens.service";
import type { RequestContext } from "./session.service";

/**
 * Wire pieces the flows' route plugins under /auth/v1 share: rate limits per route, who is
 * asking, the client's PKCE challenge, the grants of `POST /token`, and OAuth's error names.
 */

const fiveMinutes = 5 * 60 * 1000;

/** A route's limit from the AUTH_RATE_LIMIT_* settings, per client address, counted over five minutes. */
export function rateLimited(rateLimits: AuthRateLimits | false, key: keyof AuthRateLimits) {
  return rateLimits ? { config: { rateLimit: { max: rateLimits[key], timeWindow: fiveMinutes } } } : {};
}

/**
 * `POST /token` counts wallet sign-ins apart from every other grant, as Supabase Auth's RATE_LIMIT_WEB3
 * (ADR 0035): one route, two buckets per client address, told apart by the grant in the query.
 */
export function tokenRateLimited(rateLimits: AuthRateLimits | false) {
  if (!rateLimits) return {};
  const { token, web3 } = rateLimits;
  const bucket = (request: FastifyRequest) =>
    (request.query as { grant_type?: unknown }).grant_type === "web3" ? "web3" : "token";
  const rateLimit = {
    timeWindow: fiveMinutes,
    keyGenerator: (request: FastifyRequest) => `${bucket(request)} ${normalizeIP(request.ip)}`,
    max: (_request: FastifyRequest, key: string) => (key.startsWith("web3 ") ? web3 : token),
  };
  return { config: { rateLimit } };
}

/** Who is asking, as sessions and the audit log record it. */
export function requestContext(request: FastifyRequest): RequestContext {
  return { ip: request.ip, userAgent: request.headers["user-agent"] ?? null };
}

/**
 * One grant of `POST /token?grant_type=…`, answered by the flow it belongs to: each flow's plugin
 * adds its own (`password`, `id_token`, `web3`), core adds `refresh_token` and `pkce`.
 */
export type TokenGrant = (request: FastifyRequest) => Promise<unknown>;
export type TokenGrants = Map<string, TokenGrant>;

export function pkce(body: { code_challenge?: string | undefined; code_challenge_method?: string | undefined }): {
  pkce?: PkceChallenge;
} {
  const { code_challenge: challenge, code_challenge_method: method } = body;
  if (!challenge && !method) return {};
  if (!challenge || !method)
    throw new AppError("validation_failed", { message: "PKCE flow requires code_challenge_method and code_challenge" });
  if (!/^(s256|plain)$/i.test(method))
    throw new AppError("validation_failed", { message: "code challenge method not supported" });
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(challenge))
    throw new AppError("validation_failed", { message: "code challenge does not match previously saved code verifier" });
  return { pkce: { codeChallenge: challenge, codeChallengeMethod: method.toLowerCase() } };
}

/** The OAuth error name of a refusal in a redirect's fragment or query, by its status. */
export const oauthErrorByStatus: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized_client",
  403: "access_denied",
  500: "server_error",
  503: "temporarily_unavailable",
};
