import { DownloadIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { useDownloadEverything } from "@/features/account/api/export";
import { notify } from "@/lib/notify";
import { useIntl } from "@/lib/intl";

/** The whole collection as one ZIP: every memory, the photos as uploaded, and pages to browse it offline. */
export function DownloadEverything() {
  const intl = useIntl();
  const download = useDownloadEverything();
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "account.download.description" })}</p>
      <Button
        variant="outline"
        className="self-start"
        disabled={download.isPending}
        onClick={() =>
          download.mutate(undefined, {
            onSuccess: () =>
              notify.success(
                intl.formatMessage({ id: "account.download.started" }),
                intl.formatMessage({ id: "account.download.startedDetail" }),
              ),
            onError: () =>
              notify.error(intl.formatMessage({ id: "toast.error" }), intl.formatMessage({ id: "account.download.failed" })),
          })
        }
      >
        <DownloadIcon aria-hidden="true" />
        {download.isPending
          ? intl.formatMessage({ id: "account.download.preparing" })
          : intl.formatMessage({ id: "account.download.button" })}
      </Button>
    </div>
  );
}
