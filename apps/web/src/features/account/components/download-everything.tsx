import { DownloadIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { useDownloadEverything } from "@/features/account/api/export";
import { notify } from "@/lib/notify";

/** The whole collection as one ZIP: every memory, the photos as uploaded, and pages to browse it offline. */
export function DownloadEverything() {
  const download = useDownloadEverything();
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">
        One ZIP file with every memory and every photo exactly as it was uploaded — including where and with which camera it was
        taken — plus pages to look through it all in any browser, without Memory Box. Keep it as private as the photos.
      </p>
      <Button
        variant="outline"
        className="self-start"
        disabled={download.isPending}
        onClick={() =>
          download.mutate(undefined, {
            onSuccess: () =>
              notify.success("Download started", "Your browser shows its progress; a large collection takes a while."),
            onError: () => notify.error("Error", "The download could not be started. Please try again."),
          })
        }
      >
        <DownloadIcon aria-hidden="true" />
        {download.isPending ? "Preparing..." : "Download everything"}
      </Button>
    </div>
  );
}
