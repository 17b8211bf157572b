import { useState, useSyncExternalStore } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { CloudUpload } from "lucide-react";

import { ConfirmDialog } from "@/components/confirm-dialog";
import { Button } from "@/components/ui/button";
import { outboxOf, pageTransport, type QueueItem } from "@/features/memories/utils/outbox-sender";
import { activeIntl, useIntl } from "@/lib/intl";

/**
 * The member's memories saved offline, each with where it stands: waiting for the connection,
 * "Uploading 2 of 4", saving, or failed with the reason and "Retry". Shown while the queue holds
 * anything; mounting it starts the sending (`outboxOf`), which goes on while the page lives.
 */
export function QueuedMemoriesPanel({ member }: { member: string }) {
  const queryClient = useQueryClient();
  const intl = useIntl();
  const [outbox] = useState(() => outboxOf(member, pageTransport(queryClient)));
  const items = useSyncExternalStore(outbox.subscribe, outbox.snapshot);
  const online = useSyncExternalStore(outbox.subscribe, outbox.isOnline);
  if (items.length === 0) return null;

  return (
    <section aria-labelledby="queued-memories-heading" className="mb-4 rounded-lg border bg-background p-4">
      <h2 id="queued-memories-heading" className="flex items-center gap-2 text-base font-semibold">
        <CloudUpload aria-hidden="true" className="size-4" />
        {intl.formatMessage({ id: "queue.heading" })}
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">{intl.formatMessage({ id: "queue.description" })}</p>
      <ul aria-live="polite" className="mt-3 flex flex-col gap-2">
        {items.map((item) => (
          <li key={item.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 text-sm">
            <div className="min-w-0">
              <p dir="auto" className="truncate font-medium">
                {item.title}
              </p>
              <p className={item.state.kind === "failed" ? "text-destructive" : "text-muted-foreground"}>
                {stateText(item, online)}
              </p>
            </div>
            {item.state.kind === "failed" && (
              <div className="flex gap-2">
                <Button size="sm" variant="outline" disabled={!online} onClick={() => void outbox.send()}>
                  {intl.formatMessage({ id: "queue.retry" })}
                </Button>
                <ConfirmDialog
                  trigger={
                    <Button size="sm" variant="ghost">
                      {intl.formatMessage({ id: "queue.discard" })}
                    </Button>
                  }
                  title={intl.formatMessage({ id: "queue.discard.title" })}
                  description={intl.formatMessage({ id: "queue.discard.description" }, { title: item.title })}
                  confirmLabel={intl.formatMessage({ id: "queue.discard" })}
                  destructive
                  onConfirm={() => void outbox.discard(item.id)}
                />
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** How a waiting memory stands, in words. */
function stateText({ state, photoCount }: QueueItem, online: boolean): string {
  switch (state.kind) {
    case "waiting":
      return online
        ? activeIntl().formatMessage({ id: "queue.waitingUpload" })
        : activeIntl().formatMessage({ id: "queue.waitingConnection" });
    case "uploading":
      return activeIntl().formatMessage({ id: "queue.uploading" }, { number: state.done + 1, total: state.total });
    case "saving":
      return photoCount > 0
        ? activeIntl().formatMessage({ id: "queue.savingWithPhotos" })
        : activeIntl().formatMessage({ id: "queue.saving" });
    case "failed":
      return activeIntl().formatMessage({ id: "queue.failed" }, { reason: state.reason });
  }
}
