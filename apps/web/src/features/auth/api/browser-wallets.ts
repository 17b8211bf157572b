/*
 * Whether the browser has a wallet, and nothing more: this is bundled with the sign-in page, whose
 * script budget is tight, so the signing itself (wallet.ts) is loaded only when a wallet is used.
 */

/** The browser wallet's EIP-1193 interface (`window.ethereum`), as extensions such as MetaMask inject it. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/**
 * A Solana wallet as extensions such as Phantom inject it (`window.solana`): Sign In With Solana
 * (`signIn`), or a public key and `signMessage`, the two interfaces `@supabase/auth-js` takes.
 */
export interface SolanaWallet {
  signIn?(input: Record<string, string>): Promise<unknown>;
  publicKey?: { toBase58(): string } | null;
  connect?(): Promise<unknown>;
  signMessage?(message: Uint8Array, encoding?: string): Promise<unknown>;
}

export interface BrowserWallets {
  ethereum?: Eip1193Provider | undefined;
  solana?: SolanaWallet | undefined;
}

const offers = (candidate: unknown, ...methods: string[]) =>
  typeof candidate === "object" &&
  candidate !== null &&
  methods.some((method) => typeof (candidate as Record<string, unknown>)[method] === "function");

/** The wallets the browser offers, of the chains asked for. */
export function browserWallets(chains: { ethereum: boolean; solana: boolean }): BrowserWallets {
  const { ethereum, solana } = window as { ethereum?: unknown; solana?: unknown };
  return {
    ethereum: chains.ethereum && offers(ethereum, "request") ? (ethereum as Eip1193Provider) : undefined,
    solana: chains.solana && offers(solana, "signIn", "signMessage") ? (solana as SolanaWallet) : undefined,
  };
}
