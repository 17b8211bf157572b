import { Button } from "@/components/ui/button";
import { useBrowserWallets, useSignInProviders, useSingleSignOn } from "@/features/auth/api/providers";
import { useConnectWallet, useIdentities, useLinkIdentity, useUnlinkIdentity } from "@/features/auth/api/identities";
import type { Wallet } from "@/features/auth/api/wallet";
import { useFreshSecondStep } from "@/features/auth/components/fresh-second-step";
import { useIntl, type AppIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

/** Between an account's name and its address. */
const separator = " · ";

/**
 * "Connected accounts": the providers and wallets the member signs in with (ADR 0034, 0035), each
 * with "Disconnect", "Connect" for the configured providers not linked yet, and "Connect an Ethereum
 * wallet" / "a Solana wallet" for each chain the server takes and the browser has a wallet of. The
 * server refuses to disconnect the last way in; its words are shown.
 */
export function ConnectedAccounts() {
  const intl = useIntl();
  const providers = useSignInProviders();
  const { ethereum, solana } = useBrowserWallets();
  const singleSignOn = useSingleSignOn();
  const wallets: [string, Wallet][] = [];
  if (ethereum) wallets.push([intl.formatMessage({ id: "connected.connectEthereum" }), { chain: "ethereum", wallet: ethereum }]);
  if (solana) wallets.push([intl.formatMessage({ id: "connected.connectSolana" }), { chain: "solana", wallet: solana }]);
  const identities = useIdentities();
  const link = useLinkIdentity();
  const connectWallet = useConnectWallet();
  const unlink = useUnlinkIdentity();
  // With a second step, connecting an account or a wallet asks for it first in a session without it.
  const fresh = useFreshSecondStep("change");
  const linked = (identities.data ?? []).filter((identity) => identity.provider !== "email");
  // A single sign-on identity (ADR 0036) is listed and can be disconnected; it is not connected from here.
  if (providers.length === 0 && wallets.length === 0 && !singleSignOn && linked.length === 0) return null;
  const nameOf = (id: string) => {
    if (id === "web3") return intl.formatMessage({ id: "connected.wallet" });
    if (id.startsWith("sso:")) return intl.formatMessage({ id: "connected.singleSignOn" });
    return providers.find((provider) => provider.id === id)?.name ?? id;
  };

  return (
    <div className="flex flex-col gap-3">
      {linked.length === 0 ? (
        <p className="text-sm">{intl.formatMessage({ id: "connected.none" })}</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label={intl.formatMessage({ id: "connected.list" })}>
          {linked.map((identity) => {
            const data = identity.identity_data;
            const detail =
              identity.provider === "web3" && typeof data?.address === "string"
                ? shortAddress(data.address)
                : typeof data?.email === "string"
                  ? data.email
                  : "";
            return (
              <li key={identity.identity_id} className="flex flex-wrap items-center justify-between gap-2">
                <span className="text-sm">
                  <span className="font-medium">{nameOf(identity.provider)}</span>
                  {detail && <span>{separator + detail}</span>}
                </span>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={unlink.isPending}
                  aria-label={intl.formatMessage({ id: "connected.disconnectLabel" }, { name: nameOf(identity.provider) })}
                  onClick={() =>
                    unlink.mutate(identity, {
                      onSuccess: () =>
                        notify.success(
                          intl.formatMessage({ id: "connected.disconnected" }),
                          intl.formatMessage({ id: "connected.disconnectedDetail" }, { name: nameOf(identity.provider) }),
                        ),
                      onError: (error) => notify.error(intl.formatMessage({ id: "connected.disconnectFailed" }), error.message),
                    })
                  }
                >
                  {intl.formatMessage({ id: "connected.disconnect" })}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <div className="flex flex-wrap gap-2">
        {providers
          .filter((provider) => !linked.some((identity) => identity.provider === provider.id))
          .map((provider) => (
            <Button
              key={provider.id}
              type="button"
              size="sm"
              variant="outline"
              disabled={link.isPending}
              onClick={() =>
                void fresh.run(
                  () => link.mutateAsync(provider),
                  (error) => error && notify.error(intl.formatMessage({ id: "connected.connectFailed" }), messageOf(intl, error)),
                )
              }
            >
              {intl.formatMessage({ id: "connected.connect" }, { name: provider.name })}
            </Button>
          ))}
        {wallets.map(([name, wallet]) => (
          <Button
            key={name}
            type="button"
            size="sm"
            variant="outline"
            disabled={connectWallet.isPending}
            onClick={() =>
              void fresh.run(
                () => connectWallet.mutateAsync(wallet),
                (error) =>
                  error
                    ? notify.error(intl.formatMessage({ id: "connected.connectFailed" }), messageOf(intl, error))
                    : notify.success(
                        intl.formatMessage({ id: "connected.walletConnected" }),
                        intl.formatMessage({ id: "connected.walletConnectedDetail" }),
                      ),
              )
            }
          >
            {name}
          </Button>
        ))}
      </div>
      {fresh.dialog}
    </div>
  );
}

/** 0x1234…abcd (a Solana address: 7S3P…AaKv), as the notice e-mail names it: enough to recognise one's wallet. */
function shortAddress(address: string): string {
  return address.length > 12 ? `${address.slice(0, address.startsWith("0x") ? 6 : 4)}…${address.slice(-4)}` : address;
}

function messageOf(intl: AppIntl, error: unknown): string {
  return error instanceof Error ? error.message : intl.formatMessage({ id: "connected.tryAgain" });
}
