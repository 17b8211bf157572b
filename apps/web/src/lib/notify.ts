/**
 * The app's toasts: a title plus an optional description, as the spec's error catalogue lists
 * them. `error` is the destructive style, `success` the non-destructive one.
 *
 * Sonner is loaded on the first toast, not with the app: most visits never show one, and the
 * sign-in screen should load as little code as it can. The app's toaster mounts once a toast has
 * been asked for (see `isToastDemanded`); sonner keeps its toasts in module state and replays the
 * live ones to a toaster that subscribes late, so a toast shown before its toaster is not lost.
 */
export const notify = {
  error(title: string, description?: string) {
    show("error", title, description);
  },
  success(title: string, description?: string) {
    show("success", title, description);
  },
};

let demanded = false;
const demandListeners = new Set<() => void>();

/** Whether any toast has been asked for yet: the app's toaster mounts (and loads) from then on. */
export function isToastDemanded(): boolean {
  return demanded;
}

/** Calls `listener` when the first toast is asked for, for `useSyncExternalStore`. Returns the unsubscribe. */
export function subscribeToToastDemand(listener: () => void): () => void {
  demandListeners.add(listener);
  return () => demandListeners.delete(listener);
}

function show(kind: "error" | "success", title: string, description: string | undefined): void {
  if (!demanded) {
    demanded = true;
    for (const listener of demandListeners) listener();
  }
  import("sonner").then(
    ({ toast }) => toast[kind](title, { description }),
    (error: unknown) => console.error(`Could not show the toast "${title}":`, error),
  );
}
