import { lazy, Suspense, useSyncExternalStore, type ComponentType } from "react";
import type { ToasterProps } from "sonner";

import { loadToaster } from "@/components/toaster-loader";
import { isToastDemanded, subscribeToToastDemand } from "@/lib/notify";

// A toaster whose code failed to load shows nothing rather than taking the screen down with it.
const Toaster = lazy<ComponentType<ToasterProps>>(() =>
  loadToaster().then(
    ({ Toaster }) => ({ default: Toaster }),
    (error: unknown) => {
      console.error("Could not load the toaster:", error);
      return { default: () => null };
    },
  ),
);

/**
 * The app's toaster, mounted (and its code loaded) only once a toast has been asked for through
 * `notify`. Toasts requested while it loads are replayed to it by sonner when it subscribes.
 */
export function DeferredToaster(props: ToasterProps) {
  const demanded = useSyncExternalStore(subscribeToToastDemand, isToastDemanded, isToastDemanded);
  if (!demanded) return null;
  return (
    <Suspense fallback={null}>
      <Toaster {...props} />
    </Suspense>
  );
}
