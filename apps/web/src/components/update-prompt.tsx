import { useRegisterSW } from "virtual:pwa-register/react";

import { Button } from "@/components/ui/button";
import { useIntl } from "@/lib/intl";

/**
 * Registers the service worker once the page has loaded (after the first screen and the app have
 * started, ADR 0026) and, when a new version of the app is waiting, offers to switch to it: the
 * new worker takes over and the page reloads with the new version.
 */
export function UpdatePrompt() {
  const intl = useIntl();
  const {
    needRefresh: [needRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    immediate: false,
    onRegisterError: (error: unknown) => console.error("Could not register the service worker:", error),
  });
  if (!needRefresh) return null;
  return (
    <div
      role="status"
      className="fixed inset-x-4 bottom-4 z-50 mx-auto flex max-w-md flex-wrap items-center justify-between gap-3 rounded-lg border bg-card px-4 py-3 text-sm text-card-foreground shadow-lg"
    >
      <p>{intl.formatMessage({ id: "update.ready" })}</p>
      <Button size="sm" onClick={() => void updateServiceWorker(true)}>
        {intl.formatMessage({ id: "update.reload" })}
      </Button>
    </div>
  );
}
