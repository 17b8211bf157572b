import { KeyRoundIcon } from "lucide-react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { ItemList, ItemRow } from "@/components/item-list";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { passkeysSupported, webauthnProblem, type Passkey } from "@/features/auth/api/passkeys";
import { useAddPasskey, usePasskeys, useRemovePasskey } from "@/features/auth/api/passkey-list";
import { useFreshSecondStep } from "@/features/auth/components/fresh-second-step";
import { formatDay, formatSince } from "@/lib/dates";
import { useIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

/**
 * The member's passkeys: each with its name, when it was added and last used, and "Remove"; and
 * "Add a passkey", which asks this device (or a phone nearby, or a password manager) to make one.
 */
export function PasskeyList() {
  const intl = useIntl();
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const supported = passkeysSupported();
  const fresh = useFreshSecondStep();

  function addPasskey() {
    add.mutate(undefined, {
      onSuccess: () =>
        notify.success(intl.formatMessage({ id: "passkeys.added" }), intl.formatMessage({ id: "passkeys.addedDetail" })),
      onError: (error) => notify.error(intl.formatMessage({ id: "toast.error" }), webauthnProblem(error, "add")),
    });
  }

  function removePasskey(passkey: Passkey) {
    void fresh.run(
      () => remove.mutateAsync(passkey.id),
      (error) => {
        if (error) notify.error(intl.formatMessage({ id: "toast.error" }), webauthnProblem(error, "add"));
        else notify.success(intl.formatMessage({ id: "passkeys.removed" }), intl.formatMessage({ id: "passkeys.removedDetail" }));
      },
    );
  }

  if (passkeys.isError)
    return (
      <p className="text-sm text-destructive" role="alert">
        {intl.formatMessage({ id: "passkeys.loadFailed" })}
      </p>
    );
  if (!passkeys.data) return <Spinner>{intl.formatMessage({ id: "passkeys.loading" })}</Spinner>;

  return (
    <div className="flex flex-col gap-4">
      {fresh.dialog}
      {passkeys.data.length > 0 ? (
        <ItemList label={intl.formatMessage({ id: "passkeys.list" })}>
          {passkeys.data.map((passkey) => (
            <ItemRow
              key={passkey.id}
              label={passkey.friendly_name || intl.formatMessage({ id: "passkeys.unnamed" })}
              icon={KeyRoundIcon}
              title={
                <span className="font-medium break-words">
                  {passkey.friendly_name || intl.formatMessage({ id: "passkeys.unnamed" })}
                </span>
              }
              detail={
                passkey.last_used_at
                  ? intl.formatMessage(
                      { id: "passkeys.addedUsed" },
                      { day: formatDay(passkey.created_at), since: formatSince(passkey.last_used_at) },
                    )
                  : intl.formatMessage({ id: "passkeys.addedUnused" }, { day: formatDay(passkey.created_at) })
              }
              action={
                <ConfirmDialog
                  trigger={
                    <Button variant="outline" size="sm">
                      {intl.formatMessage({ id: "passkeys.remove" })}
                    </Button>
                  }
                  title={intl.formatMessage({ id: "passkeys.removeTitle" })}
                  description={intl.formatMessage({ id: "passkeys.removeDescription" })}
                  confirmLabel={intl.formatMessage({ id: "passkeys.remove" })}
                  destructive
                  onConfirm={() => removePasskey(passkey)}
                />
              }
            />
          ))}
        </ItemList>
      ) : (
        <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "passkeys.none" })}</p>
      )}
      {supported ? (
        <Button variant="outline" className="self-start" disabled={add.isPending} onClick={addPasskey}>
          {add.isPending ? intl.formatMessage({ id: "passkeys.waiting" }) : intl.formatMessage({ id: "passkeys.add" })}
        </Button>
      ) : (
        <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "passkeys.unsupported" })}</p>
      )}
    </div>
  );
}
