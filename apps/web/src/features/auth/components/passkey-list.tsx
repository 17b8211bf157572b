import { KeyRoundIcon } from "lucide-react";
import { useId, useState, type FormEvent } from "react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { ItemList, ItemRow } from "@/components/item-list";
import { FieldProblem } from "@/components/field-problem";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { defaultPasskeyName, passkeysSupported, webauthnProblem, type Passkey } from "@/features/auth/api/passkeys";
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from "@/features/auth/api/passkey-list";
import { useFreshSecondStep } from "@/features/auth/components/fresh-second-step";
import { formatDay, formatSince } from "@/lib/dates";
import { useIntl, type AppIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

/** The server's limit on a passkey's name. */
const nameMaxLength = 120;

function nameProblem(intl: AppIntl, name: string): string | undefined {
  const length = name.trim().length;
  return length === 0 || length > nameMaxLength ? intl.formatMessage({ id: "passkeys.nameRule" }) : undefined;
}

/** A passkey's name, typed: for a new one (prefilled with where it is made) or to rename one. */
function PasskeyNameForm({
  label,
  initial,
  submitLabel,
  busy,
  onSubmit,
  onCancel,
}: {
  label: string;
  initial: string;
  submitLabel: string;
  busy: boolean;
  onSubmit: (name: string) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const intl = useIntl();
  const [name, setName] = useState(initial);
  const [problem, setProblem] = useState<string>();

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const refused = nameProblem(intl, name);
    if (refused) setProblem(refused);
    else onSubmit(name.trim());
  }

  return (
    <form className="flex flex-col gap-2" onSubmit={handleSubmit} noValidate>
      <Label htmlFor={id}>{label}</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={id}
          value={name}
          maxLength={nameMaxLength}
          autoFocus
          onChange={(event) => {
            setName(event.target.value);
            setProblem(undefined);
          }}
          aria-invalid={problem !== undefined || undefined}
        />
        <Button type="submit" disabled={busy}>
          {submitLabel}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel} disabled={busy}>
          {intl.formatMessage({ id: "common.cancel" })}
        </Button>
      </div>
      <FieldProblem problem={problem} />
    </form>
  );
}

/**
 * The member's passkeys: each with its name, when it was added and last used, and "Remove"; and
 * "Add a passkey", which asks this device (or a phone nearby, or a password manager) to make one.
 */
export function PasskeyList() {
  const intl = useIntl();
  const passkeys = usePasskeys();
  const add = useAddPasskey();
  const remove = useRemovePasskey();
  const rename = useRenamePasskey();
  const [naming, setNaming] = useState(false);
  const [renaming, setRenaming] = useState<string>();
  const supported = passkeysSupported();
  const fresh = useFreshSecondStep();

  function addPasskey(name: string) {
    add.mutate(name, {
      onSuccess: () => {
        setNaming(false);
        notify.success(intl.formatMessage({ id: "passkeys.added" }), intl.formatMessage({ id: "passkeys.addedDetail" }));
      },
      onError: (error) => notify.error(intl.formatMessage({ id: "toast.error" }), webauthnProblem(error, "add")),
    });
  }

  function renamePasskey(passkey: Passkey, name: string) {
    rename.mutate(
      { passkeyId: passkey.id, name },
      {
        onSuccess: () => {
          setRenaming(undefined);
          notify.success(intl.formatMessage({ id: "passkeys.renamed" }), name);
        },
        onError: (error) => notify.error(intl.formatMessage({ id: "toast.error" }), webauthnProblem(error, "add")),
      },
    );
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
          {passkeys.data.map((passkey) =>
            renaming === passkey.id ? (
              <li key={passkey.id} className="p-4">
                <PasskeyNameForm
                  label={intl.formatMessage(
                    { id: "passkeys.renameLabel" },
                    { name: passkey.friendly_name || intl.formatMessage({ id: "passkeys.unnamed" }) },
                  )}
                  initial={passkey.friendly_name ?? ""}
                  submitLabel={intl.formatMessage({ id: "passkeys.save" })}
                  busy={rename.isPending}
                  onSubmit={(name) => renamePasskey(passkey, name)}
                  onCancel={() => setRenaming(undefined)}
                />
              </li>
            ) : (
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
                  <div className="flex gap-2">
                    <Button variant="ghost" size="sm" onClick={() => setRenaming(passkey.id)}>
                      {intl.formatMessage({ id: "passkeys.rename" })}
                    </Button>
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
                  </div>
                }
              />
            ),
          )}
        </ItemList>
      ) : (
        <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "passkeys.none" })}</p>
      )}
      {supported && naming ? (
        <PasskeyNameForm
          label={intl.formatMessage({ id: "passkeys.nameLabel" })}
          initial={defaultPasskeyName()}
          submitLabel={
            add.isPending ? intl.formatMessage({ id: "passkeys.waiting" }) : intl.formatMessage({ id: "passkeys.create" })
          }
          busy={add.isPending}
          onSubmit={addPasskey}
          onCancel={() => setNaming(false)}
        />
      ) : supported ? (
        <Button variant="outline" className="self-start" onClick={() => setNaming(true)}>
          {intl.formatMessage({ id: "passkeys.add" })}
        </Button>
      ) : (
        <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "passkeys.unsupported" })}</p>
      )}
    </div>
  );
}
