import { useState } from "react";
import { Link, useSearchParams } from "react-router";
import { CircleAlertIcon, CircleCheckIcon, MailX } from "lucide-react";

import { CardPage } from "@/components/card-page";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { paths } from "@/config/paths";
import { unsubscribeFromDigest, type UnsubscribeResult } from "@/features/notifications/api/unsubscribe";
import { useIntl } from "@/lib/intl";

/**
 * Where the digest e-mail's "Unsubscribe" link lands (issue #33), signed in or not: one button
 * sends the one-click unsubscribe (RFC 8058) the mail's `List-Unsubscribe-Post` names. Opening the
 * link changes nothing by itself (mail scanners open links).
 */
export function UnsubscribeRoute() {
  const intl = useIntl();
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<UnsubscribeResult | null>(token ? null : { kind: "invalid" });

  async function unsubscribe() {
    setBusy(true);
    setResult(await unsubscribeFromDigest(token));
    setBusy(false);
  }

  if (result?.kind === "done")
    return (
      <CardPage
        icon={CircleCheckIcon}
        title={intl.formatMessage({ id: "unsubscribe.done.title" })}
        description={intl.formatMessage({ id: "unsubscribe.done.description" })}
      >
        <Button asChild variant="outline">
          <Link to={paths.notifications}>{intl.formatMessage({ id: "unsubscribe.settings" })}</Link>
        </Button>
      </CardPage>
    );

  return (
    <CardPage
      icon={MailX}
      title={intl.formatMessage({ id: "unsubscribe.title" })}
      description={intl.formatMessage({ id: "unsubscribe.description" })}
    >
      {result?.kind === "invalid" && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>{intl.formatMessage({ id: "unsubscribe.invalid.title" })}</AlertTitle>
          <AlertDescription>
            <p>{intl.formatMessage({ id: "unsubscribe.invalid.description" })}</p>
          </AlertDescription>
        </Alert>
      )}
      {result?.kind === "failed" && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>{intl.formatMessage({ id: "unsubscribe.failed.title" })}</AlertTitle>
          <AlertDescription>
            <p>{result.problem ?? intl.formatMessage({ id: "unsubscribe.failed.description" })}</p>
          </AlertDescription>
        </Alert>
      )}
      {result?.kind === "invalid" ? (
        <Button asChild variant="outline">
          <Link to={paths.notifications}>{intl.formatMessage({ id: "unsubscribe.settings" })}</Link>
        </Button>
      ) : (
        <Button type="button" disabled={busy} onClick={() => void unsubscribe()}>
          {intl.formatMessage({ id: busy ? "unsubscribe.busy" : "unsubscribe.submit" })}
        </Button>
      )}
    </CardPage>
  );
}
