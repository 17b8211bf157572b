import { useId, useState, type FormEvent } from "react";
import type { SingleSignOnOverview, SingleSignOnProvider } from "@memory-box/contract";
import { CheckIcon, CopyIcon } from "lucide-react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { FieldProblem } from "@/components/field-problem";
import { LoadingState } from "@/components/loading-state";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import {
  useAddIdentityProvider,
  useRemoveIdentityProvider,
  useSingleSignOnOverview,
} from "@/features/single-sign-on/api/single-sign-on";
import { ApiError } from "@/lib/api-client";
import { formatDay } from "@/lib/dates";
import { useIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

/**
 * An owner's single sign-on (ADR 0036): what to give the identity provider, the providers
 * registered, and a form to add one. The caller shows it to owners of a server with SAML on.
 */
export function SingleSignOnSettings() {
  const intl = useIntl();
  const overview = useSingleSignOnOverview({ enabled: true });

  if (overview.isPending) return <LoadingState shape="rows">{intl.formatMessage({ id: "sso.loading" })}</LoadingState>;
  if (overview.data === undefined) {
    return (
      <div className="flex flex-col items-start gap-3">
        <p className="text-sm text-destructive" role="alert">
          {intl.formatMessage({ id: "sso.loadFailed" })}
        </p>
        <Button variant="outline" size="sm" disabled={overview.isFetching} onClick={() => void overview.refetch()}>
          {overview.isFetching ? intl.formatMessage({ id: "sso.retrying" }) : intl.formatMessage({ id: "sso.retry" })}
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <ServiceProviderDetails serviceProvider={overview.data.service_provider} />
      <IdentityProviderList providers={overview.data.providers} />
      <AddIdentityProviderForm />
    </div>
  );
}

function ServiceProviderDetails({ serviceProvider }: { serviceProvider: SingleSignOnOverview["service_provider"] }) {
  const intl = useIntl();
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm">{intl.formatMessage({ id: "sso.intro" })}</p>
      <CopyableValue label={intl.formatMessage({ id: "sso.entityId" })} value={serviceProvider.entity_id} />
      <CopyableValue
        label={intl.formatMessage({ id: "sso.assertionConsumerUrl" })}
        value={serviceProvider.assertion_consumer_url}
      />
      <CopyableValue label={intl.formatMessage({ id: "sso.serverMetadataUrl" })} value={serviceProvider.metadata_url} />
    </div>
  );
}

/** A read-only value to paste into the identity provider's console, with a copy button. */
function CopyableValue({ label, value }: { label: string; value: string }) {
  const id = useId();
  const intl = useIntl();
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input id={id} readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
        <Button
          type="button"
          variant="outline"
          aria-label={intl.formatMessage({ id: "sso.copyLabel" }, { label })}
          className="sm:w-28"
          onClick={() =>
            void navigator.clipboard.writeText(value).then(
              () => setCopied(true),
              () =>
                notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "sso.copyFailed" }, { label })),
            )
          }
        >
          {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
          {copied ? intl.formatMessage({ id: "sso.copied" }) : intl.formatMessage({ id: "sso.copy" })}
        </Button>
      </div>
    </div>
  );
}

function IdentityProviderList({ providers }: { providers: SingleSignOnProvider[] }) {
  const intl = useIntl();
  return (
    <section aria-labelledby="identity-providers-heading" className="flex flex-col gap-2">
      <h3 id="identity-providers-heading" className="text-base font-semibold">
        {intl.formatMessage({ id: "sso.providers" })}
      </h3>
      {providers.length === 0 ? (
        <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "sso.noProviders" })}</p>
      ) : (
        <ul className="flex flex-col divide-y rounded-lg border bg-card">
          {providers.map((provider) => (
            <IdentityProviderRow key={provider.id} provider={provider} />
          ))}
        </ul>
      )}
    </section>
  );
}

function IdentityProviderRow({ provider }: { provider: SingleSignOnProvider }) {
  const intl = useIntl();
  const remove = useRemoveIdentityProvider();
  const domains = provider.domains.join(", ");
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" aria-label={provider.entity_id}>
      <div className="flex min-w-0 flex-col gap-1">
        <span className="font-medium break-all">{provider.entity_id}</span>
        <span className="text-sm break-all text-muted-foreground">{domains}</span>
        <span className="text-sm text-muted-foreground">
          {provider.metadata_url
            ? intl.formatMessage({ id: "sso.addedFromUrl" }, { day: formatDay(provider.created_at), url: provider.metadata_url })
            : intl.formatMessage({ id: "sso.addedPasted" }, { day: formatDay(provider.created_at) })}
        </span>
      </div>
      <ConfirmDialog
        trigger={
          <Button variant="outline" size="sm" disabled={remove.isPending}>
            {intl.formatMessage({ id: "sso.remove" })}
          </Button>
        }
        title={intl.formatMessage({ id: "sso.removeTitle" })}
        description={intl.formatMessage({ id: "sso.removeDescription" }, { domains, entityId: provider.entity_id })}
        confirmLabel={intl.formatMessage({ id: "sso.remove" })}
        destructive
        onConfirm={() =>
          remove.mutate(provider.id, {
            onSuccess: () =>
              notify.success(
                intl.formatMessage({ id: "sso.removed" }),
                intl.formatMessage({ id: "sso.removedDetail" }, { domains }),
              ),
            onError: (error) =>
              notify.error(
                intl.formatMessage({ id: "toast.error" }),
                error instanceof ApiError && error.status < 500 ? error.message : intl.formatMessage({ id: "sso.removeFailed" }),
              ),
          })
        }
      />
    </li>
  );
}

/** What the fields take, as examples in their own syntax: the same in every language. */
const examples = {
  metadataUrl: "https://sso.example.org/saml/metadata",
  metadataXml: "<EntityDescriptor ...>",
  domain: "example.org",
};

/** "example.org, Example.net " → ["example.org", "Example.net"]: commas or spaces between them. */
function domainsOf(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((domain) => domain.trim())
    .filter((domain) => domain !== "");
}

/**
 * The identity provider's metadata, by address or pasted (one is enough), and the e-mail domains
 * it signs in. A refusal (XML that is not metadata, an address that does not answer, a domain
 * another provider has) is said under the form, and what was typed stays for correcting.
 */
function AddIdentityProviderForm() {
  const id = useId();
  const intl = useIntl();
  const [metadataUrl, setMetadataUrl] = useState("");
  const [metadataXml, setMetadataXml] = useState("");
  const [domainText, setDomainText] = useState("");
  const [problem, setProblem] = useState<string>();
  const add = useAddIdentityProvider();
  const problemId = `${id}-problem`;
  const hintId = `${id}-hint`;
  const url = metadataUrl.trim();
  const xml = metadataXml.trim();
  const domains = domainsOf(domainText);
  const ready = (url !== "" || xml !== "") && domains.length > 0;

  /** A change to any field clears the refusal of what was there before. */
  const edited = (set: (value: string) => void) => (value: string) => {
    set(value);
    setProblem(undefined);
  };

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready || add.isPending) return;
    // The server takes one or the other; saying so here spares a round trip.
    if (url !== "" && xml !== "") {
      setProblem(intl.formatMessage({ id: "sso.both" }));
      return;
    }
    setProblem(undefined);
    add.mutate(url !== "" ? { metadata_url: url, domains } : { metadata_xml: xml, domains }, {
      onSuccess: (provider) => {
        setMetadataUrl("");
        setMetadataXml("");
        setDomainText("");
        notify.success(
          intl.formatMessage({ id: "sso.added" }),
          intl.formatMessage({ id: "sso.addedDetail" }, { domains: provider.domains.join(", ") }),
        );
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status < 500) setProblem(error.message);
        else notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "sso.addFailed" }));
      },
    });
  }

  const describedBy = (...ids: (string | false)[]) => ids.filter(Boolean).join(" ") || undefined;
  return (
    <form className="flex flex-col gap-4" onSubmit={handleSubmit} noValidate aria-labelledby={`${id}-heading`}>
      <div className="flex flex-col gap-1">
        <h3 id={`${id}-heading`} className="text-base font-semibold">
          {intl.formatMessage({ id: "sso.addHeading" })}
        </h3>
        <p id={hintId} className="text-sm text-muted-foreground">
          {intl.formatMessage({ id: "sso.addHint" })}
        </p>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-url`}>{intl.formatMessage({ id: "sso.metadataUrl" })}</Label>
        <Input
          id={`${id}-url`}
          type="url"
          autoComplete="off"
          placeholder={examples.metadataUrl}
          value={metadataUrl}
          onChange={(event) => edited(setMetadataUrl)(event.target.value)}
          aria-describedby={describedBy(hintId, problem !== undefined && problemId)}
        />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-xml`}>{intl.formatMessage({ id: "sso.metadataXml" })}</Label>
        <Textarea
          id={`${id}-xml`}
          spellCheck={false}
          placeholder={examples.metadataXml}
          className="max-h-64 font-mono text-xs md:text-xs"
          value={metadataXml}
          onChange={(event) => edited(setMetadataXml)(event.target.value)}
          aria-describedby={describedBy(hintId, problem !== undefined && problemId)}
        />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-domains`}>{intl.formatMessage({ id: "sso.domains" })}</Label>
        <Input
          id={`${id}-domains`}
          autoComplete="off"
          placeholder={examples.domain}
          value={domainText}
          onChange={(event) => edited(setDomainText)(event.target.value)}
          aria-describedby={describedBy(`${id}-domains-hint`, problem !== undefined && problemId)}
        />
        <p id={`${id}-domains-hint`} className="text-sm text-muted-foreground">
          {intl.formatMessage({ id: "sso.domainsHint" })}
        </p>
      </div>
      <FieldProblem id={problemId} problem={problem} />
      <Button type="submit" disabled={!ready || add.isPending} className="self-start sm:w-40">
        {add.isPending ? intl.formatMessage({ id: "sso.adding" }) : intl.formatMessage({ id: "sso.add" })}
      </Button>
    </form>
  );
}
