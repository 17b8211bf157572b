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
    <CardPage icon={Archive} title="Welcome to Memory Box" description="Your personal memory collection for two">
      {shownLinkError && view.kind === "tabs" && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>This email link can&apos;t be used</AlertTitle>
          <AlertDescription>
            <p>{linkErrorText(shownLinkError)}</p>
            <div className="mt-1 flex flex-wrap gap-2">
              <Button type="button" size="sm" variant="outline" onClick={() => open({ kind: "resend" })}>
                New confirmation email
              </Button>
              <Button type="button" size="sm" variant="outline" onClick={() => open({ kind: "forgot" })}>
                Reset password
              </Button>
            </div>
          </AlertDescription>
        </Alert>
      )}
      {providerError && view.kind === "tabs" && (
        <Alert variant="destructive">
          <CircleAlertIcon aria-hidden="true" />
          <AlertTitle>Signing in with {providerError.provider} did not work</AlertTitle>
          <AlertDescription>
            <p>{providerError.description || "The sign-in was not completed."}</p>
          </AlertDescription>
        </Alert>
      )}
      {view.kind === "tabs" && (
        <Tabs defaultValue={initialTab}>
          <TabsList className="w-full">
            <TabsTrigger value="sign-in">Sign In</TabsTrigger>
            <TabsTrigger value="sign-up">Sign Up</TabsTrigger>
          </TabsList>
          <TabsContent value="sign-in" className="pt-2">
            <CredentialsForm
              passwordPlaceholder="Enter your password"
              passwordAutoComplete="current-password"
              submitLabel="Sign In"
              busyLabel="Signing in..."
              busy={signIn.isPending}
              onSubmit={signIn.run}
              footer={
                <>
                  <PasskeySignInButton />
                  <ProviderButtons />
                  <div className="flex flex-wrap justify-center gap-x-2">
                    <Button type="button" variant="link" onClick={() => open({ kind: "forgot" })}>
                      Forgot password?
                    </Button>
                    <Button type="button" variant="link" onClick={() => open({ kind: "code-request" })}>
                      Email me a sign-in code
                    </Button>
                  </div>
                </>
              }
            />
          </TabsContent>
          <TabsContent value="sign-up" className="pt-2">
            <CredentialsForm
              passwordPlaceholder="Create a password"
              passwordHint={passwordRule}
              passwordProblems={signUp.passwordProblems}
              onPasswordChange={signUp.clearPasswordProblems}
              passwordAutoComplete="new-password"
              initialEmail={invitedEmail}
              submitLabel="Sign Up"
              busyLabel="Creating account..."
              busy={signUp.isPending}
              onSubmit={signUp.run}
              footer={
                <Button type="button" variant="link" className="self-center" onClick={() => open({ kind: "resend" })}>
                  Confirmation email never came?
                </Button>
              }
            />
          </TabsContent>
        </Tabs>
      )}
      {view.kind === "forgot" && (
        <EmailRequestForm
          heading="Reset your password"
          description="Enter your email, and we'll send you a link to set a new password."
          submitLabel="Send reset link"
          send={emailSends.passwordReset}
          sentMessage={(email) => `If ${email} belongs to a member, a link to set a new password is on its way.`}
          onBack={backToTabs}
        />
      )}
      {view.kind === "resend" && (
        <EmailRequestForm
          heading="Confirm your email"
          description="Enter the email you signed up with, and we'll send a new confirmation link and code."
          submitLabel="Send confirmation email"
          send={emailSends.confirmation}
          sentMessage={(email) => `A new confirmation email is on its way to ${email}.`}
          onSent={(email) => setView({ kind: "code", email, purpose: "signup" })}
          onBack={backToTabs}
        />
      )}
      {view.kind === "code-request" && (
        <EmailRequestForm
          heading="Sign in with a code"
          description="Enter your email, and we'll send you a sign-in link and code."
          submitLabel="Send sign-in code"
          send={emailSends.signInCode}
          sentMessage={(email) => `A sign-in email is on its way to ${email}.`}
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
