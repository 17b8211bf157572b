import type { WebMessageId } from "@memory-box/messages/web";
import { useState } from "react";
import { useNavigate } from "react-router";

import { SettingsSection } from "@/components/settings-section";
import { paths } from "@/config/paths";
import { AppearanceChoice } from "@/features/account/components/appearance-choice";
import { LanguageChoice } from "@/features/account/components/language-choice";
import { DeviceList } from "@/features/account/components/device-list";
import { DisplayNameForm } from "@/features/account/components/display-name-form";
import { DownloadEverything } from "@/features/account/components/download-everything";
import { BoxSettingsPanel } from "@/features/box/components/box-settings";
import { ImportArchive } from "@/features/account/components/import-archive";
import { useChangeFirstRunGuide } from "@/features/guide/api/guide";
import { StorageUsage } from "@/features/account/components/storage-usage";
import { useBrowserWallets, useSignInProviders, useSingleSignOn } from "@/features/auth/api/providers";
import { SecondFactors } from "@/features/auth/components/second-factors";
import { ChangeEmailForm } from "@/features/auth/components/change-email-form";
import { ConnectedAccounts } from "@/features/auth/components/connected-accounts";
import { useFreshSecondStep } from "@/features/auth/components/fresh-second-step";
import { PasskeyList } from "@/features/auth/components/passkey-list";
import { useMembers } from "@/features/members/api/members";
import { TagManager } from "@/features/memories/components/tag-manager";
import { SetPasswordForm } from "@/features/auth/components/set-password-form";
import { useAuth } from "@/lib/auth-context";
import { notify } from "@/lib/notify";
import { userDisplayName } from "@/lib/user-name";
import { useIntl } from "@/lib/intl";
import { Button } from "@/components/ui/button";

const Section = SettingsSection;

/**
 * Only on an instance with sign-in providers (ADR 0034), that takes the browser's wallet (ADR 0035),
 * or with single sign-on (ADR 0036).
 */
function ConnectedAccountsSection() {
  const providers = useSignInProviders();
  const { ethereum, solana } = useBrowserWallets();
  const singleSignOn = useSingleSignOn();
  const intl = useIntl();
  if (providers.length === 0 && !ethereum && !solana && !singleSignOn) return null;
  return (
    <Section
      title={intl.formatMessage({ id: "settings.account.connected.title" })}
      description={intl.formatMessage({ id: "settings.account.connected.description" })}
    >
      <ConnectedAccounts />
    </Section>
  );
}

/** "Show the guide again": the first-run guide comes back (on every device) and home shows it, focused. */
function ShowGuideAgain() {
  const intl = useIntl();
  const navigate = useNavigate();
  const change = useChangeFirstRunGuide();
  return (
    <Button
      variant="outline"
      disabled={change.isPending}
      onClick={() =>
        change.mutate(false, {
          onSuccess: () => void navigate(paths.home, { state: { guide: true } }),
          onError: () => notify.error(intl.formatMessage({ id: "settings.account.guide.failed" })),
        })
      }
    >
      {intl.formatMessage({ id: "settings.account.guide.showAgain" })}
    </Button>
  );
}

/** The box (ADR 0065), then the member's own account: display name, light or dark, e-mail address, password, passkeys, two-step verification, signed-in devices and their data. */
export function AccountSettingsRoute() {
  const { user } = useAuth();
  // A new form after each saved password, so nothing typed lingers.
  const [passwordForm, setPasswordForm] = useState(0);
  const email = user?.email ?? "";
  const members = useMembers();
  const owner = members.data?.your_role === "owner";
  // Signing the other devices out asks for the second step first where the server wants it.
  const secondStep = useFreshSecondStep("change");
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id: `settings.account.${id}` as WebMessageId });

  return (
    <>
      <Section
        title={intl.formatMessage({ id: "settings.box.title" })}
        description={intl.formatMessage({ id: "settings.box.description" })}
      >
        {/* Unknown until the role is: an owner never sees the read-only view first. */}
        <BoxSettingsPanel owner={members.data ? owner : members.isError ? false : undefined} />
      </Section>
      <Section title={t("profile.title")} description={t("profile.description")}>
        <DisplayNameForm key={userDisplayName(user)} current={userDisplayName(user)} />
      </Section>
      <Section title={t("appearance.title")} description={t("appearance.description")}>
        <AppearanceChoice />
      </Section>
      <Section title={t("language.title")} description={t("language.description")}>
        <LanguageChoice />
      </Section>
      <Section title={t("email.title")} description={t("email.description")}>
        <ChangeEmailForm
          currentEmail={email}
          returnPath={paths.settings}
          onChanged={(changed) =>
            notify.success(
              t("email.changed"),
              intl.formatMessage({ id: "settings.account.email.changedDetail" }, { email: changed }),
            )
          }
        />
      </Section>
      <Section title={t("password.title")} description={t("password.description")}>
        <SetPasswordForm
          key={passwordForm}
          submitLabel={t("password.submit")}
          inline
          onDone={() => {
            setPasswordForm((count) => count + 1);
            notify.success(t("password.changed"), t("password.changedDetail"));
          }}
        />
      </Section>
      <Section title={t("passkeys.title")} description={t("passkeys.description")}>
        <PasskeyList />
      </Section>
      <ConnectedAccountsSection />
      <Section title={t("twoStep.title")} description={t("twoStep.description")}>
        <SecondFactors />
      </Section>
      <Section title={t("devices.title")} description={t("devices.description")}>
        <DeviceList runWithSecondStep={secondStep.run} />
        {secondStep.dialog}
      </Section>
      <Section title={t("data.title")} description={t("data.description")}>
        <div className="flex flex-col gap-4">
          <StorageUsage />
          <DownloadEverything />
        </div>
      </Section>
      <Section title={t("guide.title")} description={t("guide.description")}>
        <ShowGuideAgain />
      </Section>
      {owner && (
        <Section title={t("import.title")} description={t("import.description")}>
          <ImportArchive />
        </Section>
      )}
      {owner && (
        <Section
          title={intl.formatMessage({ id: "settings.tags.title" })}
          description={intl.formatMessage({ id: "settings.tags.description" })}
        >
          <TagManager />
        </Section>
      )}
    </>
  );
}
