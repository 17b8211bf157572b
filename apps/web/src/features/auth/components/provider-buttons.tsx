import { LogInIcon, WalletIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import {
  continueWith,
  continueWithSingleSignOn,
  type SignInProvider,
  useBrowserWallets,
  useSignInProviders,
  useSingleSignOn,
} from "@/features/auth/api/providers";
import type { Wallet } from "@/features/auth/api/wallet";
import { useAuthAction } from "@/features/auth/hooks/use-auth-action";
import { notify, SIGN_IN_FLOW } from "@/lib/notify";
import { activeIntl, useIntl } from "@/lib/intl";

async function go(provider: SignInProvider): Promise<void> {
  const { error } = await continueWith(provider);
  if (error) notify.error(activeIntl().formatMessage({ id: "auth.error" }), error.message, { flow: SIGN_IN_FLOW });
}

async function goWithWallet(wallet: Wallet): Promise<void> {
  try {
    // The signing code is loaded only now: the sign-in page's script budget is tight.
    const { signInWithWallet } = await import("@/features/auth/api/wallet");
    const { error } = await signInWithWallet(wallet);
    if (error) notify.error(activeIntl().formatMessage({ id: "auth.error" }), error.message, { flow: SIGN_IN_FLOW });
  } catch (error) {
    // The wallet's own refusal (the person declined, the wallet is locked).
    notify.error(
      activeIntl().formatMessage({ id: "auth.error" }),
      error instanceof Error ? error.message : activeIntl().formatMessage({ id: "auth.wallet.failed" }),
      { flow: SIGN_IN_FLOW },
    );
  }
}

async function goWithSingleSignOn(email: string): Promise<void> {
  const { error } = await continueWithSingleSignOn(email);
  if (error?.code === "sso_provider_not_found")
    notify.error(
      activeIntl().formatMessage({ id: "auth.sso.none" }),
      activeIntl().formatMessage({ id: "auth.sso.noneDetail" }, { domain: email.split("@")[1] ?? "" }),
      { flow: SIGN_IN_FLOW },
    );
  else if (error) notify.error(activeIntl().formatMessage({ id: "auth.error" }), error.message, { flow: SIGN_IN_FLOW });
}

/**
 * The address typed in the sign-in form the buttons sit in: single sign-on finds the household's
 * provider by it. Without one, the field gets the focus.
 */
function typedEmail(button: HTMLButtonElement): string | undefined {
  const field = button.form?.querySelector<HTMLInputElement>('input[type="email"]');
  const value = field?.value.trim() ?? "";
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return value;
  field?.focus();
  return undefined;
}

/**
 * "Continue with {name}" for each provider the operator configured (ADR 0034), and "Continue with
 * Ethereum wallet" / "Solana wallet" for each chain the server takes and the browser has a wallet
 * of (ADR 0035), and "Continue with single sign-on" for the address typed above when the server
 * has SAML on (ADR 0036); nothing when there is none.
 */
export function ProviderButtons() {
  const intl = useIntl();
  const providers = useSignInProviders();
  const { ethereum, solana } = useBrowserWallets();
  const wallets: [string, Wallet][] = [];
  if (ethereum) wallets.push(["Ethereum", { chain: "ethereum", wallet: ethereum }]);
  if (solana) wallets.push(["Solana", { chain: "solana", wallet: solana }]);
  const { isPending, run } = useAuthAction(go);
  const walletAction = useAuthAction(goWithWallet);
  const singleSignOn = useSingleSignOn();
  const singleSignOnAction = useAuthAction(goWithSingleSignOn);
  if (providers.length === 0 && wallets.length === 0 && !singleSignOn) return null;
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
          <LogInIcon aria-hidden="true" className="rtl:-scale-x-100" />
          {intl.formatMessage({ id: "auth.provider.continue" }, { name: provider.name })}
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
          {intl.formatMessage({ id: "auth.wallet.continue" }, { name })}
        </Button>
      ))}
      {singleSignOn && (
        <Button
          type="button"
          variant="outline"
          className="w-full"
          disabled={singleSignOnAction.isPending}
          onClick={(event) => {
            const email = typedEmail(event.currentTarget);
            if (email) singleSignOnAction.run(email);
            else
              notify.error(
                activeIntl().formatMessage({ id: "auth.sso.emailFirst" }),
                activeIntl().formatMessage({ id: "auth.sso.emailFirstDetail" }),
              );
          }}
        >
          <LogInIcon aria-hidden="true" className="rtl:-scale-x-100" />
          {intl.formatMessage({ id: "auth.sso.continue" })}
        </Button>
      )}
    </div>
  );
}
