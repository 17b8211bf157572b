import type * as WebAuthnServer from "@simplewebauthn/server";
import type * as WebAuthnHelpers from "@simplewebauthn/server/helpers";
import { z } from "zod";
import type { WebauthnConfig } from "../../../config";
import { AppError } from "../../../errors";

/** @simplewebauthn/server, loaded at the first ceremony: a server whose members use no passkey or security key never loads it. */
let webauthn: Promise<[typeof WebAuthnServer, typeof WebAuthnHelpers]> | undefined;
export const loadWebauthn = () =>
  (webauthn ??= Promise.all([import("@simplewebauthn/server"), import("@simplewebauthn/server/helpers")]));

/** A credential as the server keeps it: enough to check the authenticator's later signatures. */
export interface StoredCredential {
  /** base64url credential id. */
  id: string;
  /** base64url COSE public key. */
  publicKey: string;
  counter: number;
  transports: string[];
}

/**
 * A passkey signs a member in on its own, so it must be discoverable (the browser offers it without
 * an address) and must verify the person (PIN or biometric): possession and that proof together
 * count as two factors (ADR 0025). A security key added as a second factor only needs presence.
 */
export type CredentialKind = "passkey" | "security_key";

/** How long a ceremony may take between its options and its answer. */
export const ceremonySeconds = 300;

/** The shape a browser's serialized credential has; the library checks everything inside it. */
const CredentialJson = z
  .object({
    id: z.string().min(1).max(1024),
    rawId: z.string().min(1).max(1024),
    type: z.literal("public-key"),
    response: z.record(z.string(), z.unknown()),
  })
  .passthrough();

/**
 * The WebAuthn relying party (ADR 0025): makes the options of each ceremony and checks the
 * authenticator's answers against this site's id and origins, through @simplewebauthn/server.
 * Origins and the id come from the configuration, never from the client's request.
 */
export class RelyingParty {
  constructor(private readonly config: WebauthnConfig) {}

  get id(): string {
    return this.config.rpId;
  }

  async registrationOptions(
    user: { id: string; email: string; displayName: string },
    existing: readonly StoredCredential[],
    kind: CredentialKind,
    challenge?: string,
  ): Promise<WebAuthnServer.PublicKeyCredentialCreationOptionsJSON> {
    const [{ generateRegistrationOptions }, { isoUint8Array }] = await loadWebauthn();
    return generateRegistrationOptions({
      rpName: this.config.rpName,
      rpID: this.config.rpId,
      userID: isoUint8Array.fromUTF8String(user.id),
      userName: user.email,
      userDisplayName: user.displayName || user.email,
      timeout: ceremonySeconds * 1000,
      attestationType: "none",
      excludeCredentials: existing.map(({ id, transports }) => ({ id, transports })),
      // A security key is asked for as one (a key to plug in or tap), not as this device's screen lock.
      ...(kind === "passkey"
        ? { authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" } }
        : {
            authenticatorSelection: { residentKey: "discouraged", userVerification: "preferred" },
            preferredAuthenticatorType: "securityKey",
          }),
      ...(challenge ? { challenge } : {}),
    });
  }

  /** With no credentials named, any passkey of this site may answer (a sign-in without an address). */
  async authenticationOptions(
    allowed: readonly StoredCredential[],
    kind: CredentialKind,
  ): Promise<WebAuthnServer.PublicKeyCredentialRequestOptionsJSON> {
    const [{ generateAuthenticationOptions }] = await loadWebauthn();
    return generateAuthenticationOptions({
      rpID: this.config.rpId,
      timeout: ceremonySeconds * 1000,
      allowCredentials: allowed.map(({ id, transports }) => ({ id, transports })),
      userVerification: kind === "passkey" ? "required" : "preferred",
    });
  }

  /** The new credential, or `webauthn_verification_failed` saying what was wrong. */
  async verifyRegistration(answer: unknown, challenge: string, kind: CredentialKind): Promise<StoredCredential> {
    const response = parseCredential(answer) as unknown as WebAuthnServer.RegistrationResponseJSON;
    const [{ verifyRegistrationResponse }, { isoBase64URL }] = await loadWebauthn();
    const result = await refuseOnThrow(() => verifyRegistrationResponse({ response, ...this.expectations(challenge, kind) }));
    if (!result.verified) throw verificationFailed("The authenticator's answer could not be verified");
    const { credential } = result.registrationInfo;
    return {
      id: credential.id,
      publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      counter: credential.counter,
      transports: credential.transports ?? [],
    };
  }

  /** What every answer must match: this challenge, one of our origins, our id; a passkey must have verified the person. */
  private expectations(challenge: string, kind: CredentialKind) {
    return {
      expectedChallenge: challenge,
      expectedOrigin: this.config.origins,
      expectedRPID: this.config.rpId,
      requireUserVerification: kind === "passkey",
    };
  }

  /** The credential id an assertion claims to come from, before it is checked. */
  credentialIdOf(answer: unknown): string {
    return parseCredential(answer).id;
  }

  /** The authenticator's new signature counter, or `webauthn_verification_failed`. */
  async verifyAuthentication(
    answer: unknown,
    challenge: string,
    credential: StoredCredential,
    kind: CredentialKind,
  ): Promise<number> {
    const response = parseCredential(answer) as unknown as WebAuthnServer.AuthenticationResponseJSON;
    const [{ verifyAuthenticationResponse }, { isoBase64URL }] = await loadWebauthn();
    const result = await refuseOnThrow(() =>
      verifyAuthenticationResponse({
        response,
        ...this.expectations(challenge, kind),
        credential: {
          id: credential.id,
          publicKey: isoBase64URL.toBuffer(credential.publicKey),
          counter: credential.counter,
          transports: credential.transports,
        },
      }),
    );
    if (!result.verified) throw verificationFailed("The authenticator's signature could not be verified");
    return result.authenticationInfo.newCounter;
  }
}

/** The user handle an assertion carries (who the authenticator says it signs for), if any. */
export async function userHandleOf(answer: unknown): Promise<string | undefined> {
  const handle = (parseCredential(answer).response as { userHandle?: unknown }).userHandle;
  if (typeof handle !== "string" || handle === "") return undefined;
  const [, { isoBase64URL, isoUint8Array }] = await loadWebauthn();
  try {
    return isoUint8Array.toUTF8String(isoBase64URL.toBuffer(handle));
  } catch {
    return undefined;
  }
}

function parseCredential(answer: unknown): z.infer<typeof CredentialJson> {
  const parsed = CredentialJson.safeParse(answer);
  if (!parsed.success) throw verificationFailed("The credential is not a WebAuthn public-key credential");
  return parsed.data;
}

async function refuseOnThrow<T>(verify: () => Promise<T>): Promise<T> {
  try {
    return await verify();
  } catch (error) {
    // The library explains what did not match (origin, challenge, signature…): safe to pass on.
    throw verificationFailed(error instanceof Error ? error.message : "The authenticator's answer could not be verified");
  }
}

function verificationFailed(message: string): AppError {
  return new AppError("webauthn_verification_failed", { message });
}
