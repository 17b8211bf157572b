import { ed25519 } from "@noble/curves/ed25519.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import bs58 from "bs58";

export type Web3Chain = "ethereum" | "solana";

/**
 * A parsed Sign-In with Ethereum (EIP-4361) or Sign-In with Solana message. Parsed line by line as
 * Supabase Auth's `siwe`/`siws` parsers do, with their error texts, so a client sees the same
 * refusal from either server.
 */
export interface SignInMessage {
  raw: string;
  domain: string;
  /** Ethereum: EIP-55 checksummed; Solana: base58, as written. */
  address: string;
  statement: string | undefined;
  uri: URL;
  version: string;
  chainId: string;
  nonce: string;
  issuedAt: Date;
  expirationTime: Date | undefined;
  notBefore: Date | undefined;
  requestId: string | undefined;
  resources: string[];
}

export class MessageError extends Error {}

const headers: Record<Web3Chain, string> = {
  ethereum: " wants you to sign in with your Ethereum account:",
  solana: " wants you to sign in with your Solana account:",
};
const prefixes: Record<Web3Chain, string> = { ethereum: "siwe", solana: "siws" };
const addressPatterns: Record<Web3Chain, RegExp> = {
  ethereum: /^0x[a-fA-F0-9]{40}$/,
  solana: /^[a-zA-Z0-9]{32,44}$/,
};
const domainPattern = /^(localhost|(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,})(?::\d{1,5})?$/;
const solanaNetwork = /^solana:(main|dev|test|local)net$/;
// RFC 3339, as Go's time.Parse reads it (a zone is required).
const timestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

export function parseSignInMessage(chain: Web3Chain, raw: string): SignInMessage {
  const fail = (text: string): never => {
    throw new MessageError(`${prefixes[chain]}: ${text}`);
  };
  const lines = raw.split("\n");
  if (lines.length < 6) fail("message needs at least 6 lines");
  const header = lines[0]!;
  if (!header.endsWith(headers[chain])) fail(`message first line does not end in "${headers[chain]}"`);
  const domain = header.slice(0, -headers[chain].length).trim();
  if (!domainPattern.test(domain)) fail("domain in first line of message is not valid");
  const address = lines[1]!.trim();
  if (!addressPatterns[chain].test(address))
    fail(chain === "ethereum" ? "wallet address is not a valid Ethereum address" : "wallet address is not valid");
  if (lines[2] !== "") fail("third line must be empty");

  let start = 3;
  let statement: string | undefined;
  if (lines[3] !== "" && lines[4] === "") {
    statement = lines[3];
    start = 5;
  }
  const fields = new Map<string, string>();
  const resources: string[] = [];
  let inResources = false;
  for (let index = start; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (inResources) {
      if (line.startsWith("- ")) {
        const resource = line.slice(2).trim();
        if (!URL.canParse(resource)) fail(`Resource at position ${resources.length} has invalid URI`);
        resources.push(resource);
        continue;
      }
      inResources = false;
    }
    if (line === "Resources:") {
      inResources = true;
      continue;
    }
    if (line === "") continue;
    const colon = line.indexOf(":");
    if (colon < 0) fail(`encountered unparsable line at index ${index}`);
    fields.set(line.slice(0, colon), line.slice(colon + 1).trim());
  }

  const time = (key: string, name: string): Date | undefined => {
    const value = fields.get(key);
    if (value === undefined) return undefined;
    const parsed = timestamp.test(value) ? new Date(value) : new Date(Number.NaN);
    if (Number.isNaN(parsed.getTime())) fail(`${name} is not a valid ISO8601 timestamp`);
    return parsed;
  };
  const uriText = fields.get("URI");
  let uri: URL | undefined;
  if (uriText !== undefined) {
    if (!URL.canParse(uriText)) fail("URI is not valid");
    uri = new URL(uriText);
  }
  const chainId = fields.get("Chain ID") ?? "";
  if (fields.has("Chain ID")) {
    const valid = chain === "ethereum" ? /^[1-9]\d*$/.test(chainId) : chainId === "" || solanaNetwork.test(chainId);
    if (!valid) fail("Chain ID is not valid");
  }
  const issuedAt = time("Issued At", "Issued At");
  const expirationTime = time("Expiration Time", "Expiration Time");
  const notBefore = time("Not Before", "Not Before");
  const version = fields.get("Version") ?? "";
  if (version !== "1") fail(`Version value is not supported, expected 1 got "${version}"`);
  if (!issuedAt) return fail("Issued At is not specified");
  if (!uri) return fail("URI is not specified");
  if (expirationTime && issuedAt > expirationTime) fail("Issued At is after Expiration Time");
  if (notBefore && expirationTime && notBefore > expirationTime) fail("Not Before is after Expiration Time");

  return {
    raw,
    domain,
    address: chain === "ethereum" ? checksumAddress(address) : address,
    statement,
    uri,
    version,
    chainId,
    nonce: fields.get("Nonce") ?? "",
    issuedAt,
    expirationTime,
    notBefore,
    requestId: fields.get("Request ID"),
    resources,
  };
}

/** EIP-191 `personal_sign`: the key that signed the message must be the message's address. */
export async function verifyEthereumSignature(message: SignInMessage, signature: string): Promise<boolean> {
  const hex = signature.startsWith("0x") ? signature.slice(2) : signature;
  if (!/^[0-9a-fA-F]{130}$/.test(hex)) return false;
  const bytes = hexToBytes(hex);
  // r ‖ s ‖ v, with v the recovery bit as 0/1 or, as most wallets write it, 27/28.
  const v = bytes[64]!;
  const recovery = v === 0 || v === 27 ? 0 : v === 1 || v === 28 ? 1 : undefined;
  if (recovery === undefined) return false;
  const text = utf8ToBytes(message.raw);
  const digest = keccak_256(concatBytes(utf8ToBytes(`\x19Ethereum Signed Message:\n${text.length}`), text));
  try {
    const publicKey = secp256k1.Signature.fromBytes(bytes.subarray(0, 64), "compact")
      .addRecoveryBit(recovery)
      .recoverPublicKey(digest)
      .toBytes(false);
    return addressOf(publicKey) === message.address;
  } catch {
    // A malformed signature (r or s out of range, a point off the curve) matches nobody.
    return false;
  }
}

/** The Ethereum address of an uncompressed secp256k1 public key (0x04 ‖ x ‖ y), EIP-55 checksummed. */
function addressOf(publicKey: Uint8Array): string {
  return checksumAddress(`0x${bytesToHex(keccak_256(publicKey.subarray(1)).subarray(12))}`);
}

/** EIP-55: each hex letter of the address is upper case where the hash of the lower-case address has a nibble of 8 or more. */
function checksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let checksummed = "0x";
  for (let index = 0; index < lower.length; index++)
    checksummed += Number.parseInt(hash[index]!, 16) >= 8 ? lower[index]!.toUpperCase() : lower[index];
  return checksummed;
}

/**
 * ed25519 over the message's bytes by the key the base58 address is. As Supabase Auth, also the
 * off-chain message envelope Ledger devices sign instead.
 */
export function verifySolanaSignature(message: SignInMessage, signature: Uint8Array): boolean {
  let publicKey: Uint8Array;
  try {
    publicKey = bs58.decode(message.address);
  } catch {
    return false;
  }
  if (publicKey.length !== 32 || signature.length !== 64) return false;
  const raw = new TextEncoder().encode(message.raw);
  const verify = (bytes: Uint8Array) => {
    try {
      return ed25519.verify(signature, bytes, publicKey);
    } catch {
      return false;
    }
  };
  if (verify(raw)) return true;
  if (raw.length > 0xffff) return false;
  const domain = new Uint8Array(32);
  domain.set(new TextEncoder().encode(message.domain).slice(0, 32));
  const envelope = new Uint8Array(16 + 1 + 32 + 1 + 1 + 32 + 2 + raw.length);
  let offset = 0;
  const put = (bytes: Uint8Array) => {
    envelope.set(bytes, offset);
    offset += bytes.length;
  };
  put(new Uint8Array([0xff]));
  put(new TextEncoder().encode("solana offchain"));
  put(new Uint8Array([0])); // version
  put(domain);
  put(new Uint8Array([0, 1])); // ASCII format, one signer
  put(publicKey);
  put(new Uint8Array([raw.length & 0xff, raw.length >> 8]));
  put(raw);
  return verify(envelope);
}

/** Supabase Auth takes the signature as base64 with or without padding, standard or URL alphabet. */
export function decodeSolanaSignature(signature: string): Uint8Array | undefined {
  const url = signature.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
  if (!/^[A-Za-z0-9_-]*$/.test(url)) return undefined;
  return new Uint8Array(Buffer.from(url, "base64url"));
}
