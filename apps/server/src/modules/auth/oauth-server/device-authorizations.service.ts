import { createHash, randomBytes, randomInt, randomUUID } from "node:crypto";
import {
  DEVICE_CODE_GRANT_TYPE,
  type DeviceAuthorization,
  FRAME_SCOPE,
  formatUserCode,
  FrameLimits,
  USER_CODE_ALPHABET,
} from "@memory-box/contract";
import type { Transaction } from "kysely";
import { isUniqueViolation } from "../../../db/constraint-errors";
import type { Database, OauthClientRow } from "../../../db/schema";
import type { SessionJson } from "../core/auth.presenter";
import { oauthInvalidGrant, type RequestContext, type SessionService } from "../core/session.service";
import type { UsersRepository } from "../core/users.repository";
import { authenticateClient, type ClientCredentials, oauthError } from "./client-authentication";
import type { DeviceCodesRepository } from "./device-codes.repository";
import type { OauthClientsRepository } from "./oauth-clients.repository";

/**
 * What the device grant asks of the product (auth imports none of it, ADR 0037): the session a
 * paired device starts is bound to the device the member approved, in the exchange's transaction.
 */
export interface PairedDevices {
  /** Binds `sessionId` to the approved device `deviceId` (a frame); false when that device is gone. */
  bindSession(deviceId: string, sessionId: string, trx: Transaction<Database>): Promise<boolean>;
}

/** `POST /oauth/device_authorization`'s fields (RFC 8628 3.1), with the client's credentials. */
export interface DeviceAuthorizationRequest extends ClientCredentials {
  scope?: string;
}

/** A pairing a member may still answer. */
export interface AnswerablePairing {
  userCode: string;
  clientId: string;
  scope: string;
  expiresAt: string;
}

/** The scopes a device may ask for: a frame's, the only one (ADR 0076). */
const deviceScopes = new Set([FRAME_SCOPE]);
/** RFC 8628 3.2's `expires_in` and `interval`; a poll sooner than the interval adds `slowDownSeconds` (3.5). */
const deviceCodeTtlSeconds = 600;
const pollIntervalSeconds = 5;
const slowDownSeconds = 5;
/** Expired pairings are kept this long, so a late poll hears `expired_token` rather than `invalid_grant`. */
const expiredKeptMs = 24 * 3600 * 1000;

/**
 * The OAuth 2.0 Device Authorization Grant (RFC 8628, ADR 0076): a device without a keyboard (a
 * frame) asks for a code, a member approves it on their phone through the product API, and the
 * device, polling the token endpoint, gets a session of its client with the approved scope. The
 * device code is kept as its SHA-256 and works once; a replay ends the session it gave.
 */
export class DeviceAuthorizationsService {
  constructor(
    private readonly deps: {
      codes: DeviceCodesRepository;
      clients: Pick<OauthClientsRepository, "findById">;
      users: UsersRepository;
      sessions: SessionService;
      pairedDevices: PairedDevices;
      /** The web app, whose `/device` page a member types the code on. */
      siteUrl: string;
      now?: () => Date;
    },
  ) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** `POST /oauth/device_authorization`: a new pairing for a client allowed the device grant. */
  async authorize(request: DeviceAuthorizationRequest): Promise<DeviceAuthorization> {
    const client = await authenticateClient(this.deps.clients, request);
    if (!grantTypesOf(client).includes(DEVICE_CODE_GRANT_TYPE))
      throw oauthError("unauthorized_client", "Client is not allowed to use the device authorization grant");
    const scopes = (request.scope || FRAME_SCOPE).split(/\s+/).filter(Boolean);
    const unsupported = scopes.find((scope) => !deviceScopes.has(scope));
    if (scopes.length === 0 || unsupported !== undefined)
      throw oauthError("invalid_scope", `unsupported scope: ${unsupported ?? ""}`.trim());
    const now = this.now();
    await this.deps.codes.deleteExpiredBefore(new Date(now.getTime() - expiredKeptMs).toISOString());
    const deviceCode = randomBytes(32).toString("base64url");
    for (let attempt = 1; ; attempt += 1) {
      const userCode = newUserCode();
      try {
        await this.deps.codes.insert({
          id: randomUUID(),
          device_code_hash: hashDeviceCode(deviceCode),
          user_code: userCode,
          client_id: client.id,
          scope: [...new Set(scopes)].join(" "),
          status: "pending",
          interval_seconds: pollIntervalSeconds,
          last_polled_at: null,
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + deviceCodeTtlSeconds * 1000).toISOString(),
          answered_by: null,
          frame_id: null,
          used_at: null,
          session_id: null,
        });
      } catch (error) {
        // Another pairing of the last day holds the same eight letters: draw again.
        if (attempt < 3 && isUniqueViolation(error)) continue;
        throw error;
      }
      const shown = formatUserCode(userCode);
      return {
        device_code: deviceCode,
        user_code: shown,
        verification_uri: `${this.deps.siteUrl}/device`,
        verification_uri_complete: `${this.deps.siteUrl}/device?user_code=${shown}`,
        expires_in: deviceCodeTtlSeconds,
        interval: pollIntervalSeconds,
      };
    }
  }

  /** The pairing a member typed the code of, while it can be answered; undefined for an unknown, expired or answered one. */
  async answerable(userCode: string): Promise<AnswerablePairing | undefined> {
    const row = await this.deps.codes.findAnswerable(userCode, this.now().toISOString());
    return row && { userCode: row.user_code, clientId: row.client_id, scope: row.scope, expiresAt: row.expires_at };
  }

  /** A member approves the pairing for the device `deviceId` made in `trx`; false when it is no longer answerable. */
  approve(userCode: string, userId: string, deviceId: string, trx: Transaction<Database>): Promise<boolean> {
    return this.deps.codes.answer(userCode, this.now().toISOString(), { status: "approved", userId, frameId: deviceId }, trx);
  }

  /** A member refuses the pairing (the device hears `access_denied`); false when it is no longer answerable. */
  deny(userCode: string, userId: string): Promise<boolean> {
    return this.deps.codes.answer(userCode, this.now().toISOString(), { status: "denied", userId });
  }

  /** The token endpoint's device grant (RFC 8628 3.4, 3.5), for a client already authenticated. */
  async exchange(client: OauthClientRow, deviceCode: string, context: RequestContext): Promise<SessionJson> {
    const row = await this.deps.codes.findByDeviceCodeHash(hashDeviceCode(deviceCode));
    if (!row || row.client_id !== client.id) throw oauthInvalidGrant("Invalid device code");
    if (row.used_at !== null) {
      // Presented again: whoever holds it may have copied it, so the session it gave ends too.
      await this.deps.codes.deleteSessionOf(row.id);
      throw oauthInvalidGrant("Invalid device code");
    }
    const now = this.now();
    if (Date.parse(row.expires_at) <= now.getTime()) throw oauthError("expired_token", "The device code has expired");
    if (row.status === "denied") throw oauthError("access_denied", "The pairing was refused");
    if (row.status === "pending") {
      const tooSoon = row.last_polled_at !== null && now.getTime() - Date.parse(row.last_polled_at) < row.interval_seconds * 1000;
      const interval = row.interval_seconds + (tooSoon ? slowDownSeconds : 0);
      await this.deps.codes.recordPoll(row.id, now.toISOString(), interval);
      if (tooSoon) throw oauthError("slow_down", `Polling too often: wait ${interval} seconds between requests`);
      throw oauthError("authorization_pending", "The pairing has not been answered yet");
    }
    // Approved: the frame it made must still be there, and its approver still let in.
    const user = row.answered_by === null ? undefined : await this.deps.users.findById(row.answered_by);
    if (row.frame_id === null || !user) throw withdrawn();
    const frameId = row.frame_id;
    try {
      await this.deps.sessions.assertMaySignIn(user);
    } catch {
      throw oauthError("access_denied", "User is not allowed to sign in");
    }
    const sessionId = randomUUID();
    const at = now.toISOString();
    const outcome = await this.deps.codes.transaction(async (trx) => {
      if (!(await this.deps.codes.markUsed(row.id, at, trx))) return "replayed" as const;
      const session = await this.deps.sessions.start(user, "oauth", context, trx, "aal1", {
        clientId: client.id,
        scope: row.scope,
        authorizationId: null,
        sessionId,
      });
      await this.deps.codes.recordSession(row.id, sessionId, trx);
      if (!(await this.deps.pairedDevices.bindSession(frameId, sessionId, trx))) throw withdrawn();
      return session;
    });
    if (outcome === "replayed") {
      // Another exchange of the same code won the race: this one is the replay.
      await this.deps.codes.deleteSessionOf(row.id);
      throw oauthInvalidGrant("Invalid device code");
    }
    return outcome;
  }
}

function withdrawn() {
  return oauthError("access_denied", "The pairing was withdrawn");
}

function grantTypesOf(client: OauthClientRow): string[] {
  return JSON.parse(client.grant_types) as string[];
}

function hashDeviceCode(code: string): string {
  return createHash("sha256").update(code).digest("base64url");
}

/** Eight letters drawn uniformly from the alphabet (RFC 8628 6.1): about 34 bits. */
function newUserCode(): string {
  let code = "";
  for (let index = 0; index < FrameLimits.userCodeLength; index += 1)
    code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return code;
}
