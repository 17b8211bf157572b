import { useState } from "react";
import { Archive, CircleAlertIcon } from "lucide-react";

import { CardPage } from "@/components/card-page";
import { Alert, AlertDescription, AlertTitle } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { CodePurpose } from "@/features/auth/api/email-links";
import { CredentialsForm } from "@/features/auth/components/credentials-form";
import { EmailCodeForm } from "@/features/auth/components/email-code-form";
import { EmailRequestForm } from "@/features/auth/components/email-request-form";
import { PasskeySignInButton } from "@/features/auth/components/passkey-sign-in-button";
import { ProviderButtons } from "@/features/auth/components/provider-buttons";
import { emailSends } from "@/features/auth/hooks/email-sends";
import { useSignIn } from "@/features/auth/hooks/use-sign-in";
import { useSignUp } from "@/features/auth/hooks/use-sign-up";
import { linkErrorText, type LinkError } from "@/features/auth/utils/link-error";
import { passwordRule } from "@/features/auth/utils/password-rule";
import { useIntl } from "@/lib/intl";

/** What the card shows: the spec's two tabs, or one of the e-mail flows around them. */
export type AuthView =
  | { kind: "tabs" }
  | { kind: "forgot" }
  | { kind: "resend" }
  | { kind: "code-request" }
  | { kind: "code"; email: string; purpose: CodePurpose };

export interface AuthCardProps {
  initialView?: AuthView;
  /** Which of the spec's tabs is open first; an invitation link opens "Sign Up". */
  initialTab?: "sign-in" | "sign-up";
  /** The address an invitation link fills in on "Sign Up". */
  invitedEmail?: string;
  /** An e-mailed link that came back refused (expired, already used). */
  linkError?: LinkError;
  /** A sign-in at a provider that came back refused (not invited, address not verified), with the provider's name. */
  providerError?: LinkError & { provider: string };
}

/**
 * The sign-in / sign-up screen: its card, and around its tabs the ways in without a password at hand: a
 * password reset link, a new confirmation e-mail, and the e-mailed code typed instead of opening
 * the link. Where a successful sign-in leads is the auth route's business.
 */
export function AuthCard({
  initialView = { kind: "tabs" },
  initialTab = "sign-in",
  invitedEmail,
  linkError,
  providerError,
}: AuthCardProps) {
  const intl = useIntl();
  const [view, setView] = useState<AuthView>(initialView);
  const [shownLinkError, setShownLinkError] = useState(linkError);
  const signIn = useSignIn();
  const signUp = useSignUp((email) => setView({ kind: "code", email, purpose: "signup" }));
  const backToTabs = () => setView({ kind: "tabs" });
  const open = (next: AuthView) => {
    setShownLinkError(undefined);
    setView(next);
  };

  return (
    <CardPage
      icon={Archive}
      title={intl.formatMessage({ id: "auth.title" })}
      description={intl.formatMessage({ id: "auth.description" })}
    >
      {shownLinkError && view.kind === "tabs" && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>{intl.formatMessage({ id: "auth.linkError.title" })}</AlertTitle>
          <AlertDescription>
            <p>{linkErrorText(shownLinkError)}</p>
            <div className="mt-1 flex flex-wrap gap-2">
              <Button type="button" size="sm" variant="outline" onClick={() => open({ kind: "resend" })}>
                {intl.formatMessage({ id: "auth.linkError.resend" })}
              </Button>
              <Button type="button" size="sm" variant="outline" onClick={() => open({ kind: "forgot" })}>
                {intl.formatMessage({ id: "auth.linkError.reset" })}
              </Button>
            </div>
          </AlertDescription>
        </Alert>
      )}
      {providerError && view.kind === "tabs" && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>{intl.formatMessage({ id: "auth.providerError.title" }, { provider: providerError.provider })}</AlertTitle>
          <AlertDescription>
            <p>{providerError.description || intl.formatMessage({ id: "auth.providerError.fallback" })}</p>
          </AlertDescription>
        </Alert>
      )}
      {view.kind === "tabs" && (
        <Tabs defaultValue={initialTab}>
          <TabsList className="w-full">
            <TabsTrigger value="sign-in">{intl.formatMessage({ id: "auth.tab.signIn" })}</TabsTrigger>
            <TabsTrigger value="sign-up">{intl.formatMessage({ id: "auth.tab.signUp" })}</TabsTrigger>
          </TabsList>
          <TabsContent value="sign-in" className="pt-2">
            <CredentialsForm
              passwordPlaceholder={intl.formatMessage({ id: "auth.signIn.passwordPlaceholder" })}
              passwordAutoComplete="current-password"
              submitLabel={intl.formatMessage({ id: "auth.signIn.submit" })}
              busyLabel={intl.formatMessage({ id: "auth.signIn.busy" })}
              busy={signIn.isPending}
              onSubmit={signIn.run}
              footer={
                <>
                  <PasskeySignInButton />
                  <ProviderButtons />
                  <div className="flex flex-wrap justify-center gap-x-2">
                    <Button type="button" variant="link" onClick={() => open({ kind: "forgot" })}>
                      {intl.formatMessage({ id: "auth.signIn.forgot" })}
                    </Button>
                    <Button type="button" variant="link" onClick={() => open({ kind: "code-request" })}>
                      {intl.formatMessage({ id: "auth.signIn.code" })}
                    </Button>
                  </div>
                </>
              }
            />
          </TabsContent>
          <TabsContent value="sign-up" className="pt-2">
            <CredentialsForm
              passwordPlaceholder={intl.formatMessage({ id: "auth.signUp.passwordPlaceholder" })}
              passwordHint={passwordRule(intl)}
              passwordProblems={signUp.passwordProblems}
              onPasswordChange={signUp.clearPasswordProblems}
              passwordAutoComplete="new-password"
              initialEmail={invitedEmail}
              submitLabel={intl.formatMessage({ id: "auth.signUp.submit" })}
              busyLabel={intl.formatMessage({ id: "auth.signUp.busy" })}
              busy={signUp.isPending}
              onSubmit={signUp.run}
              footer={
                <Button type="button" variant="link" className="self-center" onClick={() => open({ kind: "resend" })}>
                  {intl.formatMessage({ id: "auth.signUp.noEmail" })}
                </Button>
              }
            />
          </TabsContent>
        </Tabs>
      )}
      {view.kind === "forgot" && (
        <EmailRequestForm
          heading={intl.formatMessage({ id: "auth.forgot.heading" })}
          description={intl.formatMessage({ id: "auth.forgot.description" })}
          submitLabel={intl.formatMessage({ id: "auth.forgot.submit" })}
          send={emailSends.passwordReset}
          sentMessage={(email) => intl.formatMessage({ id: "auth.forgot.sent" }, { email })}
          onBack={backToTabs}
        />
      )}
      {view.kind === "resend" && (
        <EmailRequestForm
          heading={intl.formatMessage({ id: "auth.resend.heading" })}
          description={intl.formatMessage({ id: "auth.resend.description" })}
          submitLabel={intl.formatMessage({ id: "auth.resend.submit" })}
          send={emailSends.confirmation}
          sentMessage={(email) => intl.formatMessage({ id: "auth.resend.sent" }, { email })}
          onSent={(email) => setView({ kind: "code", email, purpose: "signup" })}
          onBack={backToTabs}
        />
      )}
      {view.kind === "code-request" && (
        <EmailRequestForm
          heading={intl.formatMessage({ id: "auth.code.heading" })}
          description={intl.formatMessage({ id: "auth.code.description" })}
          submitLabel={intl.formatMessage({ id: "auth.code.submit" })}
          send={emailSends.signInCode}
          sentMessage={(email) => intl.formatMessage({ id: "auth.code.sent" }, { email })}
          onSent={(email) => setView({ kind: "code", email, purpose: "email" })}
          onBack={backToTabs}
        />
      )}
      {view.kind === "code" && (
        <EmailCodeForm
          key={`${view.purpose}:${view.email}`}
          email={view.email}
          purpose={view.purpose}
          resend={view.purpose === "signup" ? emailSends.confirmation : emailSends.signInCode}
          onBack={backToTabs}
        />
      )}
    </CardPage>
  );
}
