import { Button } from "@/components/ui/button";
import { useIdentities, useLinkIdentity, useSignInProviders, useUnlinkIdentity } from "@/features/auth/api/providers";
import { notify } from "@/lib/notify";

/**
 * "Connected accounts": the providers the member signs in with (ADR 0034), each with "Disconnect",
 * and "Connect" for the configured ones not linked yet. The server refuses to disconnect the last
 * way in; its words are shown.
 */
export function ConnectedAccounts() {
  const providers = useSignInProviders();
  const identities = useIdentities();
  const link = useLinkIdentity();
  const unlink = useUnlinkIdentity();
  if (providers.length === 0) return null;
  const linked = (identities.data ?? []).filter((identity) => identity.provider !== "email");
  const nameOf = (id: string) => providers.find((provider) => provider.id === id)?.name ?? id;

  return (
    <div className="flex flex-col gap-3">
      {linked.length === 0 ? (
        <p className="text-sm">No account is connected.</p>
      ) : (
        <ul className="flex flex-col gap-2" aria-label="Connected accounts">
          {linked.map((identity) => {
            const email = typeof identity.identity_data?.email === "string" ? identity.identity_data.email : "";
            return (
              <li key={identity.identity_id} className="flex flex-wrap items-center justify-between gap-2">
                <span className="text-sm">
                  <span className="font-medium">{nameOf(identity.provider)}</span>
                  {email && <span> · {email}</span>}
                </span>
                <Button
                  type="button"
                  size="sm"
                  variant="outline"
                  disabled={unlink.isPending}
                  aria-label={`Disconnect ${nameOf(identity.provider)}`}
                  onClick={() =>
                    unlink.mutate(identity, {
                      onSuccess: () => notify.success("Disconnected", `You no longer sign in with ${nameOf(identity.provider)}.`),
                      onError: (error) => notify.error("Could not disconnect", error.message),
                    })
                  }
                >
                  Disconnect
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
              onClick={() => link.mutate(provider, { onError: (error) => notify.error("Could not connect", error.message) })}
            >
              Connect {provider.name}
            </Button>
          ))}
      </div>
    </div>
  );
}
