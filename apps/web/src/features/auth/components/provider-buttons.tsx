import { LogInIcon, WalletIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { continueWith, type SignInProvider, useBrowserWallets, useSignInProviders } from "@/features/auth/api/providers";
import type { Wallet } from "@/features/auth/api/wallet";
import { useAuthAction } from "@/features/auth/hooks/use-auth-action";
import { notify } from "@/lib/notify";

async function go(provider: SignInProvider): Promise<void> {
  const { error } = await continueWith(provider);
  if (error) notify.error("Authentication Error", error.message);
}

async function goWithWallet(wallet: Wallet): Promise<void> {
  try {
    // The signing code is loaded only now: the sign-in page's script budget is tight.
    const { signInWithWallet } = await import("@/features/auth/api/wallet");
    const { error } = await signInWithWallet(wallet);
    if (error) notify.error("Authentication Error", error.message);
  } catch (error) {
    // The wallet's own refusal (the person declined, the wallet is locked).
    notify.error("Authentication Error", error instanceof Error ? error.message : "The wallet did not sign in.");
  }
}

/**
 * "Continue with {name}" for each provider the operator configured (ADR 0034), and "Continue with
 * Ethereum wallet" / "Solana wallet" for each chain the server takes and the browser has a wallet
 * of (ADR 0035); nothing when there is none.
 */
export function ProviderButtons() {
  const providers = useSignInProviders();
  const { ethereum, solana } = useBrowserWallets();
  const wallets: [string, Wallet][] = [];
  if (ethereum) wallets.push(["Ethereum", { chain: "ethereum", wallet: ethereum }]);
  if (solana) wallets.push(["Solana", { chain: "solana", wallet: solana }]);
  const { isPending, run } = useAuthAction(go);
  const walletAction = useAuthAction(goWithWallet);
  if (providers.length === 0 && wallets.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      {providers.map((provider) => (
        <Button
          key={provider.id}
          type="button"
          variant="outline"
          className="w-full"
          disabled={isPending}
          onClick={() => run(provider)}
        >
          <LogInIcon aria-hidden="true" />
          Continue with {provider.name}
        </Button>
      ))}
      {wallets.map(([name, wallet]) => (
        <Button
          key={name}
          type="button"
          variant="outline"
          className="w-full"
          disabled={walletAction.isPending}
          onClick={() => walletAction.run(wallet)}
        >
          <WalletIcon aria-hidden="true" />
          Continue with {name} wallet
        </Button>
      ))}
    </div>
  );
}
