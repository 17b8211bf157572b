/** The toaster's code (sonner in the app's colours), loaded on demand. */
export const loadToaster = () => import("@/components/ui/sonner");

/**
 * Fetches the toaster's code before the first toast needs it: a save that fails because the
 * connection dropped must still be able to say so.
 */
export function preloadToaster(): void {
  loadToaster().catch(() => {});
}
