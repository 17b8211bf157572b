import { createHash, createSign, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import { isoBase64URL, isoCBOR } from "@simplewebauthn/server/helpers";

// A WebAuthn authenticator in software, for tests: it makes ES256 credentials and signs
// assertions exactly as a phone or security key would (attestation "none"), so the server's
// checks run for real. What a browser adds (clientDataJSON with the page's origin) is done here too.

interface Credential {
  /** base64url. */
  id: string;
  rpId: string;
  privateKey: KeyObject;
  userHandle: string;
  counter: number;
}

interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}

interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

const userPresent = 0x01;
const userVerified = 0x04;
const attestedCredentialData = 0x40;

export class SoftwareAuthenticator {
  constructor(
    /** The page the ceremony runs on, as the browser would put it in clientDataJSON. */
    private readonly origin: string,
    /** Whether it verifies the person (PIN or biometric); a plain security key may not. */
    private readonly verifiesUser = true,
    private readonly credentials: Credential[] = [],
  ) {}

  /** The same authenticator used on another page (a phishing site showing this site's options). */
  onPage(origin: string): SoftwareAuthenticator {
    return new SoftwareAuthenticator(origin, this.verifiesUser, this.credentials);
  }

  /** `navigator.credentials.create()`: a new credential for the options' relying party and user. */
  create(options: CreationOptions): Record<string, unknown> {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, isoBase64URL.toBuffer(jwk.x ?? "")],
      [-3, isoBase64URL.toBuffer(jwk.y ?? "")],
    ]);
    const id = randomBytes(16);
    const encodedId = isoBase64URL.fromBuffer(id);
    this.credentials.push({ id: encodedId, rpId, privateKey, userHandle: options.user.id, counter: 0 });
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length);
    const authData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags() | attestedCredentialData]),
      Buffer.alloc(4),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      id,
      Buffer.from(isoCBOR.encode(coseKey)),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, never> | Uint8Array>([
        ["fmt", "none"],
        ["attStmt", new Map<string, never>()],
        ["authData", authData],
      ]),
    );
    return {
      id: encodedId,
      rawId: encodedId,
      type: "public-key",
      response: {
        clientDataJSON: this.clientData("webauthn.create", options.challenge),
        attestationObject: isoBase64URL.fromBuffer(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
    };
  }

  /**
   * `navigator.credentials.get()`: an assertion by the credential the options allow, or by this
   * authenticator's first credential for the site when they name none (a passkey sign-in).
   */
  get(options: RequestOptions): Record<string, unknown> {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const allowed = (options.allowCredentials ?? []).map((entry) => entry.id);
    const credential = this.credentials.find(
      (candidate) => candidate.rpId === rpId && (allowed.length === 0 || allowed.includes(candidate.id)),
    );
    if (!credential) throw new Error("NotAllowedError: no credential for this site");
    credential.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(credential.counter);
    const authData = Buffer.concat([sha256(rpId), Buffer.from([this.flags()]), counter]);
    const clientDataJSON = this.clientData("webauthn.get", options.challenge);
    const signer = createSign("SHA256");
    signer.update(Buffer.concat([authData, sha256(isoBase64URL.toBuffer(clientDataJSON))]));
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      response: {
        clientDataJSON,
        authenticatorData: isoBase64URL.fromBuffer(authData),
        signature: isoBase64URL.fromBuffer(signer.sign(credential.privateKey)),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
    };
  }

  private flags(): number {
    return userPresent | (this.verifiesUser ? userVerified : 0);
  }

  private clientData(type: string, challenge: string): string {
    return isoBase64URL.fromBuffer(Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false })));
  }
}

function sha256(data: string | Uint8Array): Buffer {
  return createHash("sha256").update(data).digest();
}
