import { LogInIcon, WalletIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { continueWith, type SignInProvider, useEthereumWallet, useSignInProviders } from "@/features/auth/api/providers";
import { type Eip1193Provider, signInWithEthereumWallet } from "@/features/auth/api/wallet";
import { useAuthAction } from "@/features/auth/hooks/use-auth-action";
import { notify } from "@/lib/notify";

async function go(provider: SignInProvider): Promise<void> {
  const { error } = await continueWith(provider);
  if (error) notify.error("Authentication Error", error.message);
}

async function goWithWallet(wallet: Eip1193Provider): Promise<void> {
  try {
    const { error } = await signInWithEthereumWallet(wallet);
    if (error) notify.error("Authentication Error", error.message);
  } catch (error) {
    // The wallet's own refusal (the person declined, the wallet is locked).
    notify.error("Authentication Error", error instanceof Error ? error.message : "The wallet did not sign in.");
  }
}

/**
 * "Continue with {name}" for each provider the operator configured (ADR 0034), and "Continue with
 * Ethereum wallet" when the server takes wallets and the browser has one (ADR 0035); nothing when
 * there is neither.
 */
export function ProviderButtons() {
  const providers = useSignInProviders();
  const wallet = useEthereumWallet();
  const { isPending, run } = useAuthAction(go);
  const walletAction = useAuthAction(goWithWallet);
  if (providers.length === 0 && !wallet) return null;
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
      {wallet && (
        <Button
          type="button"
          variant="outline"
          className="w-full"
          disabled={walletAction.isPending}
          onClick={() => walletAction.run(wallet)}
        >
          <WalletIcon aria-hidden="true" />
          Continue with Ethereum wallet
        </Button>
      )}
    </div>
  );
}
