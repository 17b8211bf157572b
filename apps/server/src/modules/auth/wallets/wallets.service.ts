import { randomUUID } from "node:crypto";
import type { AuthConfig } from "../../../config";
import { AppError } from "../../../errors";
import type { AuthAuditLog } from "../core/audit-log";
import type { AuthMailer } from "../core/auth-mailer";
import { sendNotice } from "../core/account-notices";
import { assertSecondStepProven } from "../core/factor-summary";
import type { SessionJson } from "../core/auth.presenter";
import type { IdentitiesRepository } from "../identities/identities.repository";
import { assertNotLinked, insertLink } from "../identities/identity-links";
import { isAllowedRedirect } from "../core/redirects";
import { sha256 } from "../core/secrets";
import { type Caller, notInvited, type RequestContext, type SessionService } from "../core/session.service";
import type { UsersRepository } from "../core/users.repository";
import type * as Web3Messages from "./web3-messages";

type SignInMessage = Web3Messages.SignInMessage;
type Web3Chain = Web3Messages.Web3Chain;

/** The messages' reader and the signature checks (and their curve libraries), loaded at the first wallet sign-in of an enabled chain. */
let web3Messages: Promise<typeof Web3Messages> | undefined;
export const loadWeb3Messages = () => (web3Messages ??= import("./web3-messages"));

/** The provider name of wallet identities, as Supabase Auth names it. */
const provider = "web3";
const chainNames: Record<Web3Chain, string> = { ethereum: "Ethereum", solana: "Solana" };

export interface Web3Grant {
  chain: string | undefined;
  /** A string when well formed; anything else is refused once the chain is known to be on. */
  message: unknown;
  signature: unknown;
}

/**
 * Signing in with a wallet (`POST /token?grant_type=web3`), and connecting one to a signed-in
 * member (ADR 0035). The signed message is checked as Supabase Auth checks it (signature, the
 * site's URI and domain, its time window); beyond Supabase Auth, each message works once. A wallet
 * never makes an account: it signs in only as the member who connected it.
 */
export class WalletsService {
  constructor(
    private readonly deps: {
      config: AuthConfig;
      identities: IdentitiesRepository;
      users: UsersRepository;
      sessions: SessionService;
      audit: AuthAuditLog;
      mailer: AuthMailer;
      now?: () => Date;
    },
  ) {}

  get enabled(): boolean {
    return this.deps.config.web3.ethereum || this.deps.config.web3.solana;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  async signIn(grant: Web3Grant, context: RequestContext): Promise<SessionJson> {
    const { chain, message } = await this.verify(grant);
    const subject = subjectOf(chain, message);
    const identity = await this.deps.identities.findByProviderSubject(provider, subject);
    if (!identity)
      throw new AppError("signup_disabled", {
        message: "No member has connected this wallet. Sign in another way and connect it in Settings first.",
      });
    const user = await this.deps.users.findById(identity.user_id);
    if (!user) throw new AppError("user_not_found");
    if (!(await this.deps.sessions.isAllowedIn(user))) throw notInvited();
    this.deps.sessions.assertNotBanned(user, 400);
    await this.useOnce(chain, message);
    const now = this.now().toISOString();
    await this.deps.identities.transaction((trx) =>
      this.deps.identities.recordSignIn({ ...identity, identity_data: identityData(chain, message, subject) }, now, trx),
    );
    await this.deps.audit.record({
      action: "user.signed_in",
      actorId: user.id,
      actorEmail: user.email,
      ip: context.ip,
      detail: { provider, chain, address: message.address, domain: message.domain },
    });
    return this.deps.sessions.start((await this.deps.users.findById(user.id)) ?? user, "web3", context);
  }

  /**
   * Connects the wallet that signed the message to the signed-in member. Answers a session, as
   * Supabase Auth's grant-based linking (`link_identity`) does.
   */
  async link(caller: Caller, grant: Web3Grant, context: RequestContext): Promise<SessionJson> {
    assertSecondStepProven(caller);
    const { chain, message } = await this.verify(grant);
    const subject = subjectOf(chain, message);
    const target = caller.user;
    await assertNotLinked(this.deps.identities, provider, subject, target);
    await this.useOnce(chain, message);
    const now = this.now().toISOString();
    await insertLink(
      this.deps,
      target,
      {
        id: randomUUID(),
        user_id: target.id,
        provider,
        provider_id: subject,
        email: null,
        identity_data: identityData(chain, message, subject),
        last_sign_in_at: now,
        created_at: now,
        updated_at: now,
      },
      context,
      { provider, chain, address: message.address },
    );
    // As for a provider account or a passkey (ADR 0034): whoever holds a stolen session could
    // otherwise add a way in that outlives a password change unnoticed.
    sendNotice(this.deps.mailer, target, "wallet_linked", {
      changedAt: this.now(),
      wallet: { chain: chainNames[chain], address: message.address },
    });
    return this.deps.sessions.start((await this.deps.users.findById(target.id)) ?? target, "web3", context);
  }

  /** Supabase Auth's checks, in its order: the chain, the message's form, its signature, where and when it is for. */
  private async verify(grant: Web3Grant): Promise<{ chain: Web3Chain; message: SignInMessage }> {
    const { web3 } = this.deps.config;
    if (!this.enabled) throw new AppError("web3_provider_disabled");
    const chain = grant.chain;
    if (chain !== "ethereum" && chain !== "solana") throw new AppError("web3_unsupported_chain");
    const name = chainNames[chain];
    if (!web3[chain]) throw new AppError("web3_provider_disabled", { message: `${name} Web3 provider is disabled` });
    const { decodeSolanaSignature, MessageError, parseSignInMessage, verifyEthereumSignature, verifySolanaSignature } =
      await loadWeb3Messages();

    const raw = grant.message ?? "";
    const signature = grant.signature ?? "";
    if (typeof raw !== "string") throw new AppError("validation_failed", { message: "message must be a string" });
    if (typeof signature !== "string") throw new AppError("validation_failed", { message: "signature must be a string" });
    if (raw.length < 64) throw new AppError("validation_failed", { message: "message is too short" });
    if (raw.length > 20 * 1024) throw new AppError("validation_failed", { message: "message must not exceed 20KB" });
    let signatureBytes: Uint8Array | undefined;
    if (chain === "ethereum") {
      if (signature.replace(/^0x/, "").length !== 130)
        throw new AppError("validation_failed", {
          message: "signature must be 65 bytes long, encoded as a 130 character-long hexadecimal string",
        });
    } else {
      if (signature.length !== 86 && signature.length !== 88)
        throw new AppError("validation_failed", {
          message: "signature must be 64 bytes encoded as base64 with or without padding",
        });
      signatureBytes = decodeSolanaSignature(signature);
      if (!signatureBytes)
        throw new AppError("validation_failed", { message: "signature does not contain valid base64 characters" });
    }
    let message: SignInMessage;
    try {
      message = parseSignInMessage(chain, raw);
    } catch (error) {
      if (error instanceof MessageError) throw new AppError("validation_failed", { message: error.message });
      throw error;
    }

    const valid =
      chain === "ethereum" ? await verifyEthereumSignature(message, signature) : verifySolanaSignature(message, signatureBytes!);
    if (!valid) throw invalidGrant("Signature does not match address in message");

    const { siteUrl, redirectUrls } = this.deps.config;
    const { uri } = message;
    const localhost = uri.hostname === "localhost";
    if (uri.protocol !== "https:" && !localhost)
      throw invalidGrant(`Signed ${name} message is using URI which does not use HTTPS`);
    if (!isAllowedRedirect(uri.href, siteUrl, redirectUrls))
      throw invalidGrant(
        `Signed ${name} message is using URI which is not allowed on this server, message was signed for another app`,
      );
    // Supabase Auth skips this check for a localhost URI; here the message's domain is the URI's on
    // every instance, so a localhost instance does not take a message a wallet wrote for another site.
    if (uri.host !== message.domain || !isAllowedRedirect(`${uri.protocol}//${message.domain}/`, siteUrl, redirectUrls))
      throw invalidGrant(
        `Signed ${name} message is using a Domain that does not match the one in URI which is not allowed on this server`,
      );

    const now = this.now().getTime();
    if (message.notBefore && now < message.notBefore.getTime())
      throw invalidGrant(`Signed ${name} message becomes valid in the future`);
    if (message.expirationTime && now > message.expirationTime.getTime()) throw invalidGrant(`Signed ${name} message is expired`);
    const maxAgeMs = web3.maxAgeSeconds * 1000;
    if (now > message.issuedAt.getTime() + maxAgeMs) throw invalidGrant(`${name} message was issued too long ago`);
    if (now < message.issuedAt.getTime() - maxAgeMs) throw invalidGrant(`${name} message was issued too far in the future`);
    return { chain, message };
  }

  /**
   * Beyond Supabase Auth, which only bounds a message's age: a signed message is taken once (by its
   * nonce, or by its whole text when it has none), so one seen in transit cannot be presented again.
   * Kept until the message would be refused as too old anyway.
   */
  private async useOnce(chain: Web3Chain, message: SignInMessage): Promise<void> {
    const key = message.nonce
      ? `web3:${chain}:${message.address}:nonce:${message.nonce}`
      : `web3:${chain}:message:${sha256(message.raw)}`;
    const until = new Date(message.issuedAt.getTime() + this.deps.config.web3.maxAgeSeconds * 1000).toISOString();
    if (!(await this.deps.identities.useOnce(sha256(key), until, this.now().toISOString())))
      throw invalidGrant("This signed message was already used: sign a new one");
  }
}

/** The wallet a web3 identity is, for a notice: "Ethereum" and its address. */
export function walletOfIdentity(identityData: unknown): { chain: string; address: string } | undefined {
  const { chain, address } = (identityData ?? {}) as { chain?: unknown; address?: unknown };
  if ((chain !== "ethereum" && chain !== "solana") || typeof address !== "string") return undefined;
  return { chain: chainNames[chain], address };
}

/** Supabase Auth's identity id for a wallet: `web3:<chain>:<address>`. */
function subjectOf(chain: Web3Chain, message: SignInMessage): string {
  return `${provider}:${chain}:${message.address}`;
}

/** What the user object shows of the wallet, with Supabase Auth's field names. */
function identityData(chain: Web3Chain, message: SignInMessage, subject: string): string {
  return JSON.stringify({
    sub: subject,
    provider_id: subject,
    address: message.address,
    chain,
    network: message.chainId,
    domain: message.domain,
    ...(message.statement ? { statement: message.statement.slice(0, 500) } : {}),
    email_verified: false,
    phone_verified: false,
  });
}

/** The OAuth error Supabase Auth answers (`{error: "invalid_grant", error_description}`), in our envelope too. */
function invalidGrant(description: string): AppError {
  return new AppError("invalid_grant", {
    message: description,
    extra: { error: "invalid_grant", error_description: description },
  });
}
