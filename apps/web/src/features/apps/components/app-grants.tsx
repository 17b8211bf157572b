import type { WebMessageId } from "@memory-box/messages/web";
import { AppWindowIcon } from "lucide-react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { ItemList, ItemRow } from "@/components/item-list";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useAppGrants, useRevokeGrant } from "@/features/apps/api/apps";
import { formatDay } from "@/lib/dates";
import { notify } from "@/lib/notify";
import { useIntl } from "@/lib/intl";

const knownScopes = new Set(["openid", "email", "profile", "phone"]);

/**
 * The apps the member allowed to sign them in with Memory Box (ADR 0075), each with what it may
 * know and "Remove access": its sessions end at once and it must ask again.
 */
export function AppGrants() {
  const intl = useIntl();
  const grants = useAppGrants();
  const revoke = useRevokeGrant();

  if (grants.isError)
    return (
      <p className="text-sm text-destructive" role="alert">
        {intl.formatMessage({ id: "apps.grants.loadFailed" })}
      </p>
    );
  if (!grants.data) return <Spinner>{intl.formatMessage({ id: "apps.grants.loading" })}</Spinner>;
  if (grants.data.length === 0)
    return <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "apps.grants.empty" })}</p>;

  return (
    <ItemList label={intl.formatMessage({ id: "apps.grants.title" })}>
      {grants.data.map((grant) => {
        const allowed = grant.scopes
          .filter((scope) => knownScopes.has(scope))
          .map((scope) => intl.formatMessage({ id: `oauthConsent.scope.${scope}` as WebMessageId }));
        return (
          <ItemRow
            key={grant.client.id}
            label={grant.client.name}
            icon={AppWindowIcon}
            title={<span className="font-medium">{grant.client.name}</span>}
            detail={intl.formatMessage(
              { id: "apps.grants.detail" },
              {
                date: formatDay(grant.granted_at),
                scopes: new Intl.ListFormat(intl.intlLocale, { type: "conjunction" }).format(allowed),
              },
            )}
            action={
              <ConfirmDialog
                trigger={
                  <Button variant="outline" size="sm" disabled={revoke.isPending}>
                    {intl.formatMessage({ id: "apps.grants.remove" })}
                  </Button>
                }
                title={intl.formatMessage({ id: "apps.grants.remove.title" }, { app: grant.client.name })}
                description={intl.formatMessage({ id: "apps.grants.remove.description" }, { app: grant.client.name })}
                confirmLabel={intl.formatMessage({ id: "apps.grants.remove" })}
                destructive
                onConfirm={() =>
                  revoke.mutate(grant.client.id, {
                    onSuccess: () => notify.success(intl.formatMessage({ id: "apps.grants.removed" })),
                    onError: () =>
                      notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "apps.failed" })),
                  })
                }
              />
            }
          />
        );
      })}
    </ItemList>
  );
}
