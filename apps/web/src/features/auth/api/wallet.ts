import { getAuthClient } from "@/lib/auth-client";

/** The browser wallet's EIP-1193 interface (`window.ethereum`), as extensions such as MetaMask inject it. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** The wallet the browser offers, if any. */
export function ethereumWallet(): Eip1193Provider | undefined {
  const candidate = (window as { ethereum?: unknown }).ethereum;
  if (typeof candidate !== "object" || candidate === null) return undefined;
  return typeof (candidate as { request?: unknown }).request === "function" ? (candidate as Eip1193Provider) : undefined;
}

/** A wallet sign-in message, signed by the wallet's account. */
export interface SignedMessage {
  message: string;
  signature: string;
}

const statement = "Sign in to Memory Box with this wallet.";

/**
 * Asks the wallet to sign a Sign-In with Ethereum (EIP-4361) message for this site: its host as
 * domain, the page's origin as URI, a fresh nonce (the server takes each message once) and now as the
 * time it was issued (the server refuses it ten minutes later). ADR 0035.
 */
export async function signWithEthereumWallet(wallet: Eip1193Provider): Promise<SignedMessage> {
  const accounts = await wallet.request({ method: "eth_requestAccounts" });
  const address = Array.isArray(accounts) && typeof accounts[0] === "string" ? accounts[0] : undefined;
  if (!address) throw new Error("The wallet shared no account. Unlock it and try again.");
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
  if (typeof signature !== "string") throw new Error("The wallet did not sign the message.");
  return { message, signature };
}

function nonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Signs in with the wallet; the auth client keeps the session and announces it, as for any sign-in. */
export async function signInWithEthereumWallet(wallet: Eip1193Provider) {
  const { message, signature } = await signWithEthereumWallet(wallet);
  return getAuthClient().signInWithWeb3({ chain: "ethereum", message, signature: signature as `0x${string}` });
}

/**
 * Connects the wallet to the signed-in member: the web3 grant with `link_identity` and this
 * session's token (ADR 0035). The server answers a new session, as for any grant; this browser keeps
 * its own, so that one is ended at once.
 */
export async function connectEthereumWallet(wallet: Eip1193Provider): Promise<void> {
  const { data } = await getAuthClient().getSession();
  const accessToken = data.session?.access_token;
  if (!accessToken) throw new Error("Sign in again to connect a wallet.");
  const { message, signature } = await signWithEthereumWallet(wallet);
  const response = await fetch("/auth/v1/token?grant_type=web3", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${accessToken}`,
      "x-supabase-api-version": "2024-01-01",
    },
    body: JSON.stringify({ chain: "ethereum", message, signature, link_identity: true }),
  });
  const body = (await response.json().catch(() => ({}))) as { access_token?: string; message?: string };
  if (!response.ok) throw new Error(body.message ?? "The wallet could not be connected. Try again.");
  if (body.access_token)
    await fetch("/auth/v1/logout?scope=local", {
      method: "POST",
      headers: { authorization: `Bearer ${body.access_token}` },
    }).catch(() => undefined);
}
