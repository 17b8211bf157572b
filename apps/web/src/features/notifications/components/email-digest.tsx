import type { EmailDigestFrequency } from "@memory-box/contract";
import type { WebMessageId } from "@memory-box/messages/web";

import { ChoiceGroup } from "@/components/choice-group";
import { Spinner } from "@/components/ui/spinner";
import { useEmailDigest, useSaveEmailDigest } from "@/features/notifications/api/notifications";
import { deviceTimeZone } from "@/features/notifications/utils/push-device";
import { ApiError } from "@/lib/api-client";
import { useIntl } from "@/lib/intl";

const choices = [
  { value: "off", label: "notifications.email.off" },
  { value: "daily", label: "notifications.email.daily" },
  { value: "weekly", label: "notifications.email.weekly" },
] as const satisfies readonly { value: EmailDigestFrequency; label: WebMessageId }[];

/** The member's e-mail digest of what the partners added (every device's the same), saved as it is chosen. */
export function EmailDigest() {
  const intl = useIntl();
  const digest = useEmailDigest();
  const save = useSaveEmailDigest();

  if (digest.isError)
    return (
      <p className="text-sm text-destructive" role="alert">
        {intl.formatMessage({ id: "notifications.email.loadFailed" })}
      </p>
    );
  if (!digest.data) return <Spinner>{intl.formatMessage({ id: "notifications.email.loading" })}</Spinner>;
  const chosen = save.isPending ? save.variables.digest : digest.data.digest;

  return (
    <div className="flex flex-col gap-3">
      <ChoiceGroup
        legend={intl.formatMessage({ id: "notifications.email.legend" })}
        name="email-digest"
        options={choices.map(({ value, label }) => ({ value, label: intl.formatMessage({ id: label }) }))}
        value={chosen}
        disabled={save.isPending}
        onChange={(value) => save.mutate({ digest: value, time_zone: deviceTimeZone() })}
      />
      <p role="status" className="text-sm text-muted-foreground">
        {save.isPending
          ? intl.formatMessage({ id: "notifications.email.saving" })
          : save.isSuccess
            ? intl.formatMessage({ id: "notifications.email.saved" })
            : ""}
      </p>
      {save.isError && (
        <p className="text-sm text-destructive" role="alert">
          {save.error instanceof ApiError && save.error.status < 500
            ? save.error.message
            : intl.formatMessage({ id: "notifications.email.failed" })}
        </p>
      )}
    </div>
  );
}
