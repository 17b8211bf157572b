import { SettingsSection } from "@/components/settings-section";
import { DeviceNotifications } from "@/features/notifications/components/device-notifications";
import { EmailDigest } from "@/features/notifications/components/email-digest";
import { useIntl } from "@/lib/intl";

/** Settings → Notifications (issue #33): this device's notifications, then the member's e-mail digest. */
export function NotificationSettingsRoute() {
  const intl = useIntl();
  return (
    <>
      <SettingsSection
        title={intl.formatMessage({ id: "notifications.device.title" })}
        description={intl.formatMessage({ id: "notifications.device.description" })}
      >
        <DeviceNotifications />
      </SettingsSection>
      <SettingsSection
        title={intl.formatMessage({ id: "notifications.email.title" })}
        description={intl.formatMessage({ id: "notifications.email.description" })}
      >
        <EmailDigest />
      </SettingsSection>
    </>
  );
}
