import { useEffect, useState } from "react";
import { Link } from "react-router";
import { CircleAlertIcon, KeyRound, ShieldCheck } from "lucide-react";

import { CardPage } from "@/components/card-page";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { paths } from "@/config/paths";
import { answerAuthorization, type AuthorizationRequest, openAuthorization } from "@/features/oauth-consent/api/authorization";
import { useIntl } from "@/lib/intl";

/** The scopes the auth server grants (ADR 0075), each said in words on the consent page. */
const scopeWords = {
  openid: "oauthConsent.scope.openid",
  email: "oauthConsent.scope.email",
  profile: "oauthConsent.scope.profile",
  phone: "oauthConsent.scope.phone",
} as const;

type State =
  | { kind: "loading" }
  | { kind: "ask"; request: AuthorizationRequest; answering: boolean; failed: boolean }
  | { kind: "gone" }
  | { kind: "failed" }
  | { kind: "leaving" };

/**
 * Where the auth server sends a member when another app asks to use their account (the OAuth 2.1
 * authorization code flow, issue #36): who asks, for what, and where the member goes back to; Allow
 * sends them back with a code, Deny with a refusal. A request the member already allowed sends them
 * on at once. `go` leaves the page (the browser's navigation; a test gives its own).
 */
export function OAuthConsent({ authorizationId, go = leavePage }: { authorizationId: string; go?: (url: string) => void }) {
  const intl = useIntl();
  const [state, setState] = useState<State>(authorizationId ? { kind: "loading" } : { kind: "gone" });

  useEffect(() => {
    if (!authorizationId) return;
    let current = true;
    void openAuthorization(authorizationId).then((opened) => {
      if (!current) return;
      if (opened.kind === "redirect") {
        setState({ kind: "leaving" });
        go(opened.url);
      } else if (opened.kind === "ask") setState({ kind: "ask", request: opened.request, answering: false, failed: false });
      else setState(opened);
    });
    return () => {
      current = false;
    };
  }, [authorizationId, go]);

  async function answer(request: AuthorizationRequest, allow: boolean) {
    setState({ kind: "ask", request, answering: true, failed: false });
    const answered = await answerAuthorization(request.authorizationId, allow);
    if (answered.kind === "redirect") {
      setState({ kind: "leaving" });
      go(answered.url);
    } else if (answered.kind === "gone") setState({ kind: "gone" });
    else setState({ kind: "ask", request, answering: false, failed: true });
  }

  if (state.kind === "loading" || state.kind === "leaving")
    return (
      <CardPage
        icon={KeyRound}
        title={intl.formatMessage({ id: "oauthConsent.loading" })}
        description={intl.formatMessage({ id: "oauthConsent.loadingDescription" })}
      />
    );

  if (state.kind === "gone" || state.kind === "failed") {
    const gone = state.kind === "gone";
    return (
      <CardPage
        icon={CircleAlertIcon}
        title={intl.formatMessage({ id: gone ? "oauthConsent.gone.title" : "oauthConsent.failed.title" })}
        description={intl.formatMessage({ id: gone ? "oauthConsent.gone.description" : "oauthConsent.failed.description" })}
      >
        <Button asChild variant="outline">
          <Link to={paths.home}>{intl.formatMessage({ id: "oauthConsent.home" })}</Link>
        </Button>
      </CardPage>
    );
  }

  const { request, answering, failed } = state;
  const app = request.client.name || hostOf(request.client.uri) || hostOf(request.redirectUri);
  const asked = request.scopes.filter((scope): scope is keyof typeof scopeWords => scope in scopeWords);
  return (
    <CardPage
      icon={ShieldCheck}
      title={intl.formatMessage({ id: "oauthConsent.title" }, { app })}
      description={intl.formatMessage({ id: "oauthConsent.description" }, { app, email: request.email })}
    >
      {asked.length > 0 && (
        <div className="flex flex-col gap-2 text-sm">
          <p className="font-medium">{intl.formatMessage({ id: "oauthConsent.asks" }, { app })}</p>
          <ul className="list-disc ps-5 text-muted-foreground">
            {asked.map((scope) => (
              <li key={scope}>{intl.formatMessage({ id: scopeWords[scope] })}</li>
            ))}
          </ul>
        </div>
      )}
      <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "oauthConsent.private" }, { app })}</p>
      <p className="text-sm text-muted-foreground">
        {intl.formatMessage({ id: "oauthConsent.returnTo" }, { host: hostOf(request.redirectUri) || request.redirectUri })}
      </p>
      {failed && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>{intl.formatMessage({ id: "oauthConsent.failed.title" })}</AlertTitle>
          <AlertDescription>
            <p>{intl.formatMessage({ id: "oauthConsent.failed.description" })}</p>
          </AlertDescription>
        </Alert>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="button" disabled={answering} onClick={() => void answer(request, true)}>
          {intl.formatMessage({ id: answering ? "oauthConsent.busy" : "oauthConsent.allow" })}
        </Button>
        <Button type="button" variant="outline" disabled={answering} onClick={() => void answer(request, false)}>
          {intl.formatMessage({ id: "oauthConsent.deny" })}
        </Button>
      </div>
    </CardPage>
  );
}

/**
 * Leaves for the app's address. One function for the page's life: the request is read once per
 * `authorizationId` and `go` (a new function at each render would read it again at each render).
 */
function leavePage(url: string): void {
  window.location.assign(url);
}

/** The host an address names ("photos.example.com"), or nothing for one that is not a URL. */
function hostOf(address: string): string {
  try {
    return new URL(address).host;
  } catch {
    return "";
  }
}
