import { useState, type ReactNode } from "react";

import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { paths } from "@/config/paths";
import { AppearanceChoice } from "@/features/account/components/appearance-choice";
import { DeviceList } from "@/features/account/components/device-list";
import { DisplayNameForm } from "@/features/account/components/display-name-form";
import { DownloadEverything } from "@/features/account/components/download-everything";
import { ImportArchive } from "@/features/account/components/import-archive";
import { useBrowserWallets, useSignInProviders, useSingleSignOn } from "@/features/auth/api/providers";
import { SecondFactors } from "@/features/auth/components/second-factors";
import { ChangeEmailForm } from "@/features/auth/components/change-email-form";
import { ConnectedAccounts } from "@/features/auth/components/connected-accounts";
import { useFreshSecondStep } from "@/features/auth/components/fresh-second-step";
import { PasskeyList } from "@/features/auth/components/passkey-list";
import { useMembers } from "@/features/members/api/members";
import { SetPasswordForm } from "@/features/auth/components/set-password-form";
import { useAuth } from "@/lib/auth-context";
import { notify } from "@/lib/notify";
import { userDisplayName } from "@/lib/user-name";

function Section({ title, description, children }: { title: string; description: string; children: ReactNode }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2 className="text-lg">{title}</h2>
        </CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

/**
 * Only on an instance with sign-in providers (ADR 0034), that takes the browser's wallet (ADR 0035),
 * or with single sign-on (ADR 0036).
 */
function ConnectedAccountsSection() {
  const providers = useSignInProviders();
  const { ethereum, solana } = useBrowserWallets();
  const singleSignOn = useSingleSignOn();
  if (providers.length === 0 && !ethereum && !solana && !singleSignOn) return null;
  return (
    <Section title="Connected accounts" description="Other accounts you sign in with, such as Google.">
      <ConnectedAccounts />
    </Section>
  );
}

/** The member's own account: display name, light or dark, e-mail address, password, passkeys, two-step verification, signed-in devices and their data. */
export function AccountSettingsRoute() {
  const { user } = useAuth();
  // A new form after each saved password, so nothing typed lingers.
  const [passwordForm, setPasswordForm] = useState(0);
  const email = user?.email ?? "";
  const owner = useMembers().data?.your_role === "owner";
  // Signing the other devices out asks for the second step first where the server wants it.
  const secondStep = useFreshSecondStep("change");

  return (
    <>
      <Section title="Profile" description="How the other members see you.">
        <DisplayNameForm key={userDisplayName(user)} current={userDisplayName(user)} />
      </Section>
      <Section title="Appearance" description="Light or dark, on this device.">
        <AppearanceChoice />
      </Section>
      <Section title="Email" description="The address you sign in with and get mail at.">
        <ChangeEmailForm
          currentEmail={email}
          returnPath={paths.settings}
          onChanged={(changed) => notify.success("Email changed", `You sign in with ${changed} from now on.`)}
        />
      </Section>
      <Section title="Password" description="A new password signs your other devices out.">
        <SetPasswordForm
          key={passwordForm}
          submitLabel="Change password"
          inline
          onDone={() => {
            setPasswordForm((count) => count + 1);
            notify.success("Password changed", "Your other devices were signed out.");
          }}
        />
      </Section>
      <Section title="Passkeys" description="Sign in with this device's screen lock instead of typing your password.">
        <PasskeyList />
      </Section>
      <ConnectedAccountsSection />
      <Section
        title="Two-step verification"
        description="A code from your phone or a security key on every sign-in, besides your password."
      >
        <SecondFactors />
      </Section>
      <Section title="Devices" description="Where you are signed in. Sign out a device you no longer use or don't recognise.">
        <DeviceList runWithSecondStep={secondStep.run} />
        {secondStep.dialog}
      </Section>
      <Section title="Your data" description="Everything in Memory Box, yours to keep.">
        <DownloadEverything />
      </Section>
      {owner && (
        <Section title="Import" description="Memories from an archive of Memory Box or a Day One journal. Owners only.">
          <ImportArchive />
        </Section>
      )}
    </>
  );
}
