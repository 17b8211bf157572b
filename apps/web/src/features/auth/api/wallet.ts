import type { Eip1193Provider, SolanaWallet } from "@/features/auth/api/browser-wallets";
import { getAuthClient } from "@/lib/auth-client";
import { activeIntl } from "@/lib/intl";

/*
 * Signing in with a browser wallet and connecting one (ADR 0035). Loaded when a wallet button is
 * used, not with the sign-in page.
 */

export type WalletChain = "ethereum" | "solana";
export type Wallet = { chain: "ethereum"; wallet: Eip1193Provider } | { chain: "solana"; wallet: SolanaWallet };

/** A wallet sign-in message, signed by the wallet's account. */
export interface SignedMessage {
  message: string;
  /** Ethereum: hex; Solana: the 64 signature bytes. */
  signature: string | Uint8Array;
}

const statement = "Sign in to Memory Box with this wallet.";

/**
 * Asks the wallet to sign a Sign-In with Ethereum (EIP-4361) message for this site: its host as
 * domain, the page's origin as URI, a fresh nonce (the server takes each message once) and now as the
 * time it was issued (the server refuses it ten minutes later).
 */
async function signWithEthereumWallet(wallet: Eip1193Provider): Promise<SignedMessage> {
  const accounts = await wallet.request({ method: "eth_requestAccounts" });
  const address = Array.isArray(accounts) && typeof accounts[0] === "string" ? accounts[0] : undefined;
  if (!address) throw new Error(activeIntl().formatMessage({ id: "wallet.noAccount" }));
  const chainHex = await wallet.request({ method: "eth_chainId" });
  const chainId = typeof chainHex === "string" ? Number.parseInt(chainHex, 16) : Number.NaN;
  const message = [
    `${window.location.host} wants you to sign in with your Ethereum account:`,
    address,
    "",
    statement,
    "",
    `URI: ${window.location.origin}`,
    "Version: 1",
    `Chain ID: ${Number.isSafeInteger(chainId) && chainId > 0 ? chainId : 1}`,
    `Nonce: ${nonce()}`,
    `Issued At: ${new Date().toISOString()}`,
  ].join("\n");
  // personal_sign takes the message as hex-encoded UTF-8, then the signing account.
  const hex = `0x${Array.from(new TextEncoder().encode(message), (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
  const signature = await wallet.request({ method: "personal_sign", params: [hex, address] });
  if (typeof signature !== "string") throw new Error(activeIntl().formatMessage({ id: "wallet.notSigned" }));
  return { message, signature };
}

/**
 * A Sign-In with Solana message for this site, with the same fields as for Ethereum. A wallet that
 * offers Sign In With Solana (`signIn`) writes the message itself from them, as `@supabase/auth-js`
 * lets it; otherwise the message is written here, in auth-js's layout, and signed with `signMessage`.
 */
async function signWithSolanaWallet(wallet: SolanaWallet): Promise<SignedMessage> {
  const fields = {
    domain: window.location.host,
    uri: window.location.origin,
    statement,
    version: "1",
    nonce: nonce(),
    issuedAt: new Date().toISOString(),
  };
  if (wallet.signIn) {
    const output = await wallet.signIn(fields);
    const signed = (Array.isArray(output) ? output[0] : output) as { signedMessage?: unknown; signature?: unknown } | undefined;
    const { signedMessage, signature } = signed ?? {};
    // A wallet's byte arrays may come from another script context, where `instanceof Uint8Array` is false.
    if (!isBytes(signature) || !(typeof signedMessage === "string" || isBytes(signedMessage)))
      throw new Error(activeIntl().formatMessage({ id: "wallet.notSigned" }));
    return { message: typeof signedMessage === "string" ? signedMessage : new TextDecoder().decode(signedMessage), signature };
  }
  // An injected wallet shares its key once the person lets this site connect to it.
  if (!wallet.publicKey) await wallet.connect?.();
  const address = wallet.publicKey?.toBase58();
  if (!address || !wallet.signMessage) throw new Error(activeIntl().formatMessage({ id: "wallet.noAccount" }));
  const message = [
    `${fields.domain} wants you to sign in with your Solana account:`,
    address,
    "",
    statement,
    "",
    "Version: 1",
    `URI: ${fields.uri}`,
    `Issued At: ${fields.issuedAt}`,
    `Nonce: ${fields.nonce}`,
  ].join("\n");
  const output = await wallet.signMessage(new TextEncoder().encode(message), "utf8");
  // Wallet adapters answer the signature; Phantom's injected provider answers `{ signature, publicKey }`.
  const signature = isBytes(output) ? output : (output as { signature?: unknown } | null)?.signature;
  if (!isBytes(signature)) throw new Error(activeIntl().formatMessage({ id: "wallet.notSigned" }));
  return { message, signature };
}

function isBytes(value: unknown): value is Uint8Array {
  return ArrayBuffer.isView(value) && Object.prototype.toString.call(value) === "[object Uint8Array]";
}

function sign({ chain, wallet }: Wallet): Promise<SignedMessage> {
  return chain === "ethereum" ? signWithEthereumWallet(wallet) : signWithSolanaWallet(wallet);
}

function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Signs in with the wallet; the auth client keeps the session and announces it, as for any sign-in. */
export async function signInWithWallet(wallet: Wallet) {
  const { message, signature } = await sign(wallet);
  return wallet.chain === "ethereum"
    ? getAuthClient().signInWithWeb3({ chain: "ethereum", message, signature: signature as `0x${string}` })
    : getAuthClient().signInWithWeb3({ chain: "solana", message, signature: signature as Uint8Array });
}

/**
 * Connects the wallet to the signed-in member: the web3 grant with `link_identity` and this
 * session's token. The server answers a new session, as for any grant; this browser keeps its own,
 * so that one is ended at once.
 */
export async function connectWallet(wallet: Wallet): Promise<void> {
  const { data } = await getAuthClient().getSession();
  const accessToken = data.session?.access_token;
  if (!accessToken) throw new Error(activeIntl().formatMessage({ id: "wallet.signInAgain" }));
  const { message, signature } = await sign(wallet);
  const response = await fetch("/auth/v1/token?grant_type=web3", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${accessToken}`,
      "x-supabase-api-version": "2024-01-01",
    },
    body: JSON.stringify({
      chain: wallet.chain,
      message,
      // Solana signatures travel as base64, as auth-js sends them.
      signature: typeof signature === "string" ? signature : btoa(String.fromCharCode(...signature)),
      link_identity: true,
    }),
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; message?: string };
  if (!response.ok) throw new Error(body.message ?? activeIntl().formatMessage({ id: "wallet.connectFailed" }));
  if (body.access_token)
    await fetch("/auth/v1/logout?scope=local", {
      method: "POST",
      headers: { authorization: `Bearer ${body.access_token}` },
    }).catch(() => undefined);
}
