/**
 * The app's toasts: a title plus an optional description, as the spec's error catalogue lists
 * them. `error` is the destructive style, `success` the non-destructive one.
 *
 * Sonner is loaded on the first toast, not with the app: most visits never show one, and the
 * sign-in screen should load as little code as it can. The app's toaster mounts once a toast has
 * been asked for (see `isToastDemanded`); sonner keeps its toasts in module state and replays the
 * live ones to a toaster that subscribes late, so a toast shown before its toaster is not lost.
 *
 * A toast may name its `flow` (e.g. "sign-in"): the flow's newer outcome then replaces its older
 * toast instead of stacking over it (sonner updates a toast shown again under the same id), and
 * `notify.dismiss(flow)` takes it away once the flow has succeeded silently.
 */
/** Every way of signing in (password, passkey, provider, wallet, single sign-on) is one flow. */
export const SIGN_IN_FLOW = "sign-in";

export interface ToastOptions {
  /** The flow this outcome belongs to; one toast per flow is on screen at a time. */
  flow?: string;
}

export const notify = {
  error(title: string, description?: string, options?: ToastOptions) {
    show("error", title, description, options?.flow);
  },
  success(title: string, description?: string, options?: ToastOptions) {
    show("success", title, description, options?.flow);
  },
  /** Neither good nor bad news, said calmly (the page's own colours). */
  info(title: string, description?: string, options?: ToastOptions) {
    show("info", title, description, options?.flow);
  },
  /** Takes away the flow's toast, if any (nothing to load when no toast was ever shown). */
  dismiss(flow: string) {
    if (!demanded) return;
    import("sonner").then(
      ({ toast }) => toast.dismiss(flowId(flow)),
      (error: unknown) => console.error(`Could not dismiss the toast of "${flow}":`, error),
    );
  },
};

function flowId(flow: string): string {
  return `flow:${flow}`;
}

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

function show(
  kind: "error" | "success" | "info",
  title: string,
  description: string | undefined,
  flow: string | undefined,
): void {
  if (!demanded) {
    demanded = true;
    for (const listener of demandListeners) listener();
  }
  import("sonner").then(
    ({ toast }) => toast[kind](title, flow === undefined ? { description } : { description, id: flowId(flow) }),
    (error: unknown) => console.error(`Could not show the toast "${title}":`, error),
  );
}
