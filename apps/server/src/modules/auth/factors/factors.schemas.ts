import { z } from "zod";

/** `POST /factors`: what auth-js sends to enrol (extra keys, such as `phone`, are ignored). */
export const EnrollFactorBody = z.object({
  factor_type: z.string(),
  friendly_name: z.string().max(255).optional(),
  issuer: z.string().max(255).optional(),
});

/**
 * The relying party a WebAuthn factor's client names (auth-js sends the page's own); Memory Box
 * uses its configured one and refuses a request naming another (ADR 0025).
 */
const WebauthnRelyingParty = {
  rpId: z.string().max(255).optional(),
  rpOrigins: z.array(z.string().max(2048)).max(20).optional(),
};

/** `POST /factors/:id/challenge`: a WebAuthn factor's body names its relying party. */
export const ChallengeFactorBody = z
  .looseObject({ webauthn: z.looseObject(WebauthnRelyingParty).optional() })
  .nullish()
  .transform((body) => body ?? {});

/** `POST /factors/:id/verify`: a code for a TOTP factor, the authenticator's answer for a WebAuthn one. */
export const VerifyFactorBody = z.object({
  challenge_id: z.string().max(100),
  code: z.string().max(100).default(""),
  webauthn: z
    .looseObject({
      type: z.enum(["create", "request"]),
      credential_response: z.unknown(),
      ...WebauthnRelyingParty,
    })
    .optional(),
});

export const FactorParams = z.object({ id: z.string().max(100) });

/** `POST /factors/recovery-codes/verify`: a recovery code, as typed (ADR 0042). */
export const RecoveryCodeBody = z.object({ code: z.string().max(100) });
