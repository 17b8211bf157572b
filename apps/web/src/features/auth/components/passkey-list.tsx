import { KeyRoundIcon } from "lucide-react";

import { ConfirmDialog } from "@/components/confirm-dialog";
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

  function addPasskey() {
    add.mutate(undefined, {
      onSuccess: () => notify.success("Passkey added", "You can sign in with it instead of your password."),
      onError: (error) => notify.error("Error", webauthnProblem(error, "add")),
    });
  }

  function removePasskey(passkey: Passkey) {
    remove.mutate(passkey.id, {
      onSuccess: () => notify.success("Passkey removed", "It no longer signs in to your account."),
      onError: (error) => notify.error("Error", webauthnProblem(error, "add")),
    });
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
      {passkeys.data.length > 0 ? (
        <ul className="flex flex-col divide-y rounded-lg border bg-card" aria-label="Passkeys">
          {passkeys.data.map((passkey) => (
            <li
              key={passkey.id}
              aria-label={passkey.friendly_name || "Passkey"}
              className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="flex min-w-0 items-start gap-3">
                <KeyRoundIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
                <div className="flex min-w-0 flex-col gap-1">
                  <span className="font-medium break-words">{passkey.friendly_name || "Passkey"}</span>
                  <span className="text-sm text-muted-foreground">
                    Added {formatDay(passkey.created_at)}
                    {passkey.last_used_at ? ` · used ${formatSince(passkey.last_used_at)}` : " · not used yet"}
                  </span>
                </div>
              </div>
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
            </li>
          ))}
        </ul>
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
