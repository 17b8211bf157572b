import { KeyRoundIcon } from "lucide-react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { ItemList, ItemRow } from "@/components/item-list";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import {
  passkeysSupported,
  useAddPasskey,
  usePasskeys,
  useRemovePasskey,
  webauthnProblem,
  type Passkey,
} from "@/features/auth/api/passkeys";
import { useFreshSecondStep } from "@/features/auth/components/fresh-second-step";
import { formatDay, formatSince } from "@/lib/dates";
import { notify } from "@/lib/notify";

/**
 * The member's passkeys: each with its name, when it was added and last used, and "Remove"; and
 * "Add a passkey", which asks this device (or a phone nearby, or a password manager) to make one.
 */
export function PasskeyList() {
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const supported = passkeysSupported();
  const fresh = useFreshSecondStep();

  function addPasskey() {
    add.mutate(undefined, {
      onSuccess: () => notify.success("Passkey added", "You can sign in with it instead of your password."),
      onError: (error) => notify.error("Error", webauthnProblem(error, "add")),
    });
  }

  function removePasskey(passkey: Passkey) {
    void fresh.run(
      () => remove.mutateAsync(passkey.id),
      (error) => {
        if (error) notify.error("Error", webauthnProblem(error, "add"));
        else notify.success("Passkey removed", "It no longer signs in to your account.");
      },
    );
  }

  if (passkeys.isError)
    return (
      <p className="text-sm text-destructive" role="alert">
        Your passkeys could not be loaded. Check your connection and reload the page.
      </p>
    );
  if (!passkeys.data) return <Spinner>Loading passkeys...</Spinner>;

  return (
    <div className="flex flex-col gap-4">
      {fresh.dialog}
      {passkeys.data.length > 0 ? (
        <ItemList label="Passkeys">
          {passkeys.data.map((passkey) => (
            <ItemRow
              key={passkey.id}
              label={passkey.friendly_name || "Passkey"}
              icon={KeyRoundIcon}
              title={<span className="font-medium break-words">{passkey.friendly_name || "Passkey"}</span>}
              detail={`Added ${formatDay(passkey.created_at)}${passkey.last_used_at ? ` · used ${formatSince(passkey.last_used_at)}` : " · not used yet"}`}
              action={
                <ConfirmDialog
                  trigger={
                    <Button variant="outline" size="sm">
                      Remove
                    </Button>
                  }
                  title="Remove this passkey?"
                  description="It will no longer sign in to your account. Your password and other passkeys still do."
                  confirmLabel="Remove"
                  destructive
                  onConfirm={() => removePasskey(passkey)}
                />
              }
            />
          ))}
        </ItemList>
      ) : (
        <p className="text-sm text-muted-foreground">
          None yet. A passkey signs you in with your fingerprint, face or screen lock instead of your password.
        </p>
      )}
      {supported ? (
        <Button variant="outline" className="self-start" disabled={add.isPending} onClick={addPasskey}>
          {add.isPending ? "Waiting for your device..." : "Add a passkey"}
        </Button>
      ) : (
        <p className="text-sm text-muted-foreground">This browser cannot make passkeys.</p>
      )}
    </div>
  );
}
