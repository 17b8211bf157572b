import { useRef } from "react";

/**
 * Radix returns focus on close to its `Trigger` only; a dialog opened through its `open` prop has
 * none, so focus would fall to the page's start. Spread these on the dialog's Content: they note
 * what had focus when it opened and give focus back to it on close (if it is still on the page).
 */
export function useReturnFocus() {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: () => {
      // Runs before Radix moves focus into the dialog, so this is still the opener.
      opener.current =
        document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    },
    onCloseAutoFocus: (event: Event) => {
      const target = opener.current;
      opener.current = null;
      if (target?.isConnected) {
        event.preventDefault();
        target.focus();
      }
    },
  };
}
