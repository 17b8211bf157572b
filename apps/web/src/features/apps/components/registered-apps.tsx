import type { RegisteredApp } from "@memory-box/contract";
import { AppWindowIcon, CopyIcon } from "lucide-react";
import { useState, type FormEvent } from "react";

import { ChoiceGroup } from "@/components/choice-group";
import { ConfirmDialog } from "@/components/confirm-dialog";
import { FieldProblem } from "@/components/field-problem";
import { ItemList, ItemRow } from "@/components/item-list";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import { useNewAppSecret, useRegisterApp, useRegisteredApps, useRemoveApp } from "@/features/apps/api/apps";
import { formatDay } from "@/lib/dates";
import { notify } from "@/lib/notify";
import { useIntl } from "@/lib/intl";

type AppKind = RegisteredApp["client_type"];

/**
 * Owners' list of the apps that may ask members to sign in with Memory Box (issue #36): register
 * one (its secret, for an app with a server, shown once), give it a new secret, remove it.
 */
export function RegisteredApps() {
  const intl = useIntl();
  const apps = useRegisteredApps(true);
  const remove = useRemoveApp();
  const newSecret = useNewAppSecret();
  // The app whose secret was just made, shown until the owner moves on; never fetched again.
  const [revealed, setRevealed] = useState<RegisteredApp | null>(null);
  const failed = () => notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "apps.failed" }));

  return (
    <div className="flex flex-col gap-4">
      {revealed && <SecretOnce app={revealed} onDone={() => setRevealed(null)} />}
      {apps.isError ? (
        <p className="text-sm text-destructive" role="alert">
          {intl.formatMessage({ id: "apps.registered.loadFailed" })}
        </p>
      ) : !apps.data ? (
        <Spinner>{intl.formatMessage({ id: "apps.registered.loading" })}</Spinner>
      ) : apps.data.apps.length === 0 ? (
        <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "apps.registered.empty" })}</p>
      ) : (
        <ItemList label={intl.formatMessage({ id: "apps.registered.title" })}>
          {apps.data.apps.map((app) => (
            <ItemRow
              key={app.client_id}
              label={app.name}
              icon={AppWindowIcon}
              title={<span className="font-medium break-all">{app.name}</span>}
              detail={
                <>
                  {intl.formatMessage(
                    { id: "apps.registered.detail" },
                    { date: formatDay(app.created_at), kind: intl.formatMessage({ id: `apps.kind.${app.client_type}` }) },
                  )}
                  <span className="block font-mono text-xs break-all">{app.client_id}</span>
                </>
              }
              action={
                <div className="flex flex-wrap gap-2">
                  {app.client_type === "confidential" && (
                    <ConfirmDialog
                      trigger={
                        <Button variant="outline" size="sm" disabled={newSecret.isPending}>
                          {intl.formatMessage({ id: "apps.registered.newSecret" })}
                        </Button>
                      }
                      title={intl.formatMessage({ id: "apps.registered.newSecret.title" }, { app: app.name })}
                      description={intl.formatMessage({ id: "apps.registered.newSecret.description" })}
                      confirmLabel={intl.formatMessage({ id: "apps.registered.newSecret" })}
                      destructive
                      onConfirm={() => newSecret.mutate(app.client_id, { onSuccess: setRevealed, onError: failed })}
                    />
                  )}
                  <ConfirmDialog
                    trigger={
                      <Button variant="outline" size="sm" disabled={remove.isPending}>
                        {intl.formatMessage({ id: "apps.registered.remove" })}
                      </Button>
                    }
                    title={intl.formatMessage({ id: "apps.registered.remove.title" }, { app: app.name })}
                    description={intl.formatMessage({ id: "apps.registered.remove.description" })}
                    confirmLabel={intl.formatMessage({ id: "apps.registered.remove" })}
                    destructive
                    onConfirm={() =>
                      remove.mutate(app.client_id, {
                        onSuccess: () => {
                          if (revealed?.client_id === app.client_id) setRevealed(null);
                          notify.success(intl.formatMessage({ id: "apps.registered.removed" }));
                        },
                        onError: failed,
                      })
                    }
                  />
                </div>
              }
            />
          ))}
        </ItemList>
      )}
      <RegisterAppForm onRegistered={setRevealed} />
    </div>
  );
}

/** The app's client id, and its secret for the one time it is shown. */
function SecretOnce({ app, onDone }: { app: RegisteredApp; onDone: () => void }) {
  const intl = useIntl();
  return (
    <Alert>
      <AlertTitle>{intl.formatMessage({ id: "apps.secret.title" }, { app: app.name })}</AlertTitle>
      <AlertDescription className="flex flex-col gap-3">
        <CopyableValue label={intl.formatMessage({ id: "apps.secret.clientId" })} value={app.client_id} />
        {app.client_secret && (
          <>
            <CopyableValue label={intl.formatMessage({ id: "apps.secret.secret" })} value={app.client_secret} />
            <p>{intl.formatMessage({ id: "apps.secret.once" })}</p>
          </>
        )}
        <Button variant="outline" size="sm" className="self-start" onClick={onDone}>
          {intl.formatMessage({ id: "apps.secret.done" })}
        </Button>
      </AlertDescription>
    </Alert>
  );
}

function CopyableValue({ label, value }: { label: string; value: string }) {
  const intl = useIntl();
  return (
    <div className="flex flex-col gap-1">
      <span className="text-sm font-medium text-foreground">{label}</span>
      <div className="flex items-center gap-2">
        <code className="min-w-0 flex-1 rounded-md bg-muted px-2 py-1 font-mono text-xs break-all text-foreground">{value}</code>
        <Button
          variant="ghost"
          size="icon"
          aria-label={intl.formatMessage({ id: "apps.secret.copy" }, { what: label })}
          onClick={() =>
            void navigator.clipboard.writeText(value).then(
              () => notify.success(intl.formatMessage({ id: "apps.secret.copied" })),
              () => notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "apps.failed" })),
            )
          }
        >
          <CopyIcon aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}

/** Every address must be exact; the server holds the rules (https, or http on the device itself) and refuses with a field's problem. */
function RegisterAppForm({ onRegistered }: { onRegistered: (app: RegisteredApp) => void }) {
  const intl = useIntl();
  const register = useRegisterApp();
  const [name, setName] = useState("");
  const [addresses, setAddresses] = useState("");
  const [kind, setKind] = useState<AppKind>("confidential");
  const [problem, setProblem] = useState<string | undefined>();
  const redirectUris = addresses
    .split(/\s+/)
    .map((line) => line.trim())
    .filter(Boolean);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === "" || redirectUris.length === 0) {
      setProblem(intl.formatMessage({ id: "apps.form.missing" }));
      return;
    }
    setProblem(undefined);
    register.mutate(
      { name: name.trim(), redirect_uris: redirectUris, client_type: kind },
      {
        onSuccess: (app) => {
          setName("");
          setAddresses("");
          onRegistered(app);
        },
        // The server's reasons are its own words (the admin API's): the form says which rules the addresses follow.
        onError: () => setProblem(intl.formatMessage({ id: "apps.form.refused" })),
      },
    );
  };

  return (
    <form className="flex flex-col gap-4 border-t pt-4" onSubmit={submit} noValidate>
      <h3 className="font-medium">{intl.formatMessage({ id: "apps.form.title" })}</h3>
      <div className="flex flex-col gap-2">
        <Label htmlFor="app-name">{intl.formatMessage({ id: "apps.form.name" })}</Label>
        <Input id="app-name" value={name} maxLength={100} onChange={(event) => setName(event.target.value)} />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor="app-addresses">{intl.formatMessage({ id: "apps.form.addresses" })}</Label>
        <Textarea
          id="app-addresses"
          value={addresses}
          rows={2}
          aria-describedby="app-addresses-hint"
          onChange={(event) => setAddresses(event.target.value)}
        />
        <p id="app-addresses-hint" className="text-sm text-muted-foreground">
          {intl.formatMessage({ id: "apps.form.addressesHint" })}
        </p>
      </div>
      <ChoiceGroup
        legend={intl.formatMessage({ id: "apps.form.kind" })}
        name="app-kind"
        value={kind}
        onChange={setKind}
        options={[
          { value: "confidential", label: intl.formatMessage({ id: "apps.form.kind.confidential" }) },
          { value: "public", label: intl.formatMessage({ id: "apps.form.kind.public" }) },
        ]}
      />
      <FieldProblem problem={problem} />
      <Button type="submit" className="self-start" disabled={register.isPending}>
        {intl.formatMessage({ id: "apps.form.submit" })}
      </Button>
    </form>
  );
}
