import { WifiOff } from "lucide-react";
import { useCallback } from "react";

import { useOnline } from "@/hooks/use-online";
import { useIntl } from "@/lib/intl";

/** The banner's height, for the toaster to start below it (a toast must not cover it on the phone). */
export const offlineBannerHeightVariable = "--offline-banner-height";

/** Keeps `offlineBannerHeightVariable` on <html> the shown banner's height, and takes it away with the banner. */
function useHeightOnPage() {
  return useCallback((banner: HTMLElement | null) => {
    const root = document.documentElement.style;
    if (!banner) return;
    const measure = () => root.setProperty(offlineBannerHeightVariable, `${banner.offsetHeight}px`);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(banner);
    return () => {
      observer.disconnect();
      root.removeProperty(offlineBannerHeightVariable);
    };
  }, []);
}

/**
 * At the top of the member screens while the browser is offline: what shows is what this device
 * kept (ADR 0031). Saving still needs the network and fails with its own message.
 */
export function OfflineBanner() {
  const intl = useIntl();
  const online = useOnline();
  const heightOnPage = useHeightOnPage();
  if (online) return null;
  return (
    <p
      ref={heightOnPage}
      role="status"
      className="flex items-center justify-center gap-2 border-b bg-muted px-4 py-2 text-center text-sm text-muted-foreground"
    >
      <WifiOff aria-hidden="true" className="size-4 shrink-0" />
      {intl.formatMessage({ id: "offline.banner" })}
    </p>
  );
}
