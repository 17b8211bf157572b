import { SettingsSection } from "@/components/settings-section";
import { AppGrants } from "@/features/apps/components/app-grants";
import { RegisteredApps } from "@/features/apps/components/registered-apps";
import { useMembers } from "@/features/members/api/members";
import { useIntl } from "@/lib/intl";

/** Settings → Apps: the apps the member let sign them in, and for owners the apps registered here (issue #36). */
export function AppsSettingsRoute() {
  const intl = useIntl();
  const members = useMembers();
  return (
    <>
      <SettingsSection
        title={intl.formatMessage({ id: "apps.grants.title" })}
        description={intl.formatMessage({ id: "apps.grants.description" })}
      >
        <AppGrants />
      </SettingsSection>
      {members.data?.your_role === "owner" && (
        <SettingsSection
          title={intl.formatMessage({ id: "apps.registered.title" })}
          description={intl.formatMessage({ id: "apps.registered.description" })}
        >
          <RegisteredApps />
        </SettingsSection>
      )}
    </>
  );
}
