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
import { notify } from "@/lib/notify";

/**
 * An owner's single sign-on (ADR 0036): what to give the identity provider, the providers
 * registered, and a form to add one. The caller shows it to owners of a server with SAML on.
 */
export function SingleSignOnSettings() {
  const overview = useSingleSignOnOverview({ enabled: true });

  if (overview.isPending) return <LoadingState shape="rows">Loading single sign-on...</LoadingState>;
  if (overview.data === undefined) {
    return (
      <div className="flex flex-col items-start gap-3">
        <p className="text-sm text-destructive" role="alert">
          Single sign-on could not be loaded. Check your connection and try again.
        </p>
        <Button variant="outline" size="sm" disabled={overview.isFetching} onClick={() => void overview.refetch()}>
          {overview.isFetching ? "Trying again..." : "Try again"}
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
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm">
        Members of your household&apos;s domains sign in with your identity provider. Give it these details:
      </p>
      <CopyableValue label="Entity ID" value={serviceProvider.entity_id} />
      <CopyableValue label="Assertion consumer URL" value={serviceProvider.assertion_consumer_url} />
      <CopyableValue label="This server's metadata URL" value={serviceProvider.metadata_url} />
    </div>
  );
}

/** A read-only value to paste into the identity provider's console, with a copy button. */
function CopyableValue({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input id={id} readOnly value={value} onFocus={(event) => event.currentTarget.select()} />
        <Button
          type="button"
          variant="outline"
          aria-label={`Copy ${label}`}
          className="sm:w-28"
          onClick={() =>
            void navigator.clipboard.writeText(value).then(
              () => setCopied(true),
              () => notify.error("Error", `Could not copy the ${label}; select it and copy it by hand.`),
            )
          }
        >
          {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
    </div>
  );
}

function IdentityProviderList({ providers }: { providers: SingleSignOnProvider[] }) {
  return (
    <section aria-labelledby="identity-providers-heading" className="flex flex-col gap-2">
      <h3 id="identity-providers-heading" className="text-base font-semibold">
        Identity providers
      </h3>
      {providers.length === 0 ? (
        <p className="text-sm text-muted-foreground">No identity provider yet.</p>
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
  const remove = useRemoveIdentityProvider();
  const domains = provider.domains.join(", ");
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between" aria-label={provider.entity_id}>
      <div className="flex min-w-0 flex-col gap-1">
        <span className="font-medium break-all">{provider.entity_id}</span>
        <span className="text-sm break-all text-muted-foreground">{domains}</span>
        <span className="text-sm text-muted-foreground">
          Added {formatDay(provider.created_at)}
          {provider.metadata_url ? ` · metadata from ${provider.metadata_url}` : " · metadata pasted"}
        </span>
      </div>
      <ConfirmDialog
        trigger={
          <Button variant="outline" size="sm" disabled={remove.isPending}>
            Remove
          </Button>
        }
        title="Remove this identity provider?"
        description={`Addresses at ${domains} can no longer sign in with ${provider.entity_id}. Their members keep their accounts and memories, and sign in another way.`}
        confirmLabel="Remove"
        destructive
        onConfirm={() =>
          remove.mutate(provider.id, {
            onSuccess: () => notify.success("Identity provider removed", `${domains} no longer sign in with it.`),
            onError: (error) =>
              notify.error(
                "Error",
                error instanceof ApiError && error.status < 500
                  ? error.message
                  : "Failed to remove the identity provider. Please try again.",
              ),
          })
        }
      />
    </li>
  );
}

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
      setProblem("Give either the metadata URL or the metadata XML, not both.");
      return;
    }
    setProblem(undefined);
    add.mutate(url !== "" ? { metadata_url: url, domains } : { metadata_xml: xml, domains }, {
      onSuccess: (provider) => {
        setMetadataUrl("");
        setMetadataXml("");
        setDomainText("");
        notify.success("Identity provider added", `Members at ${provider.domains.join(", ")} can sign in with it.`);
      },
      onError: (error) => {
        if (error instanceof ApiError && error.status < 500) setProblem(error.message);
        else notify.error("Error", "Failed to add the identity provider. Please try again.");
      },
    });
  }

  const describedBy = (...ids: (string | false)[]) => ids.filter(Boolean).join(" ") || undefined;
  return (
    <form className="flex flex-col gap-4" onSubmit={handleSubmit} noValidate aria-labelledby={`${id}-heading`}>
      <div className="flex flex-col gap-1">
        <h3 id={`${id}-heading`} className="text-base font-semibold">
          Add identity provider
        </h3>
        <p id={hintId} className="text-sm text-muted-foreground">
          One of the two is enough: the address where your identity provider publishes its metadata, or the metadata itself.
        </p>
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-url`}>Metadata URL</Label>
        <Input
          id={`${id}-url`}
          type="url"
          autoComplete="off"
          placeholder="https://sso.example.org/saml/metadata"
          value={metadataUrl}
          onChange={(event) => edited(setMetadataUrl)(event.target.value)}
          aria-describedby={describedBy(hintId, problem !== undefined && problemId)}
        />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-xml`}>Metadata XML</Label>
        <Textarea
          id={`${id}-xml`}
          spellCheck={false}
          placeholder="<EntityDescriptor ...>"
          className="max-h-64 font-mono text-xs md:text-xs"
          value={metadataXml}
          onChange={(event) => edited(setMetadataXml)(event.target.value)}
          aria-describedby={describedBy(hintId, problem !== undefined && problemId)}
        />
      </div>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-domains`}>Email domains</Label>
        <Input
          id={`${id}-domains`}
          autoComplete="off"
          placeholder="example.org"
          value={domainText}
          onChange={(event) => edited(setDomainText)(event.target.value)}
          aria-describedby={describedBy(`${id}-domains-hint`, problem !== undefined && problemId)}
        />
        <p id={`${id}-domains-hint`} className="text-sm text-muted-foreground">
          Separated by commas. Only invited addresses at these domains sign in with this provider.
        </p>
      </div>
      <FieldProblem id={problemId} problem={problem} />
      <Button type="submit" disabled={!ready || add.isPending} className="self-start sm:w-40">
        {add.isPending ? "Adding..." : "Add"}
      </Button>
    </form>
  );
}
