import { WifiOff } from "lucide-react";

import { useOnline } from "@/hooks/use-online";
import { useIntl } from "@/lib/intl";

/**
 * At the top of the member screens while the browser is offline: what shows is what this device
 * kept (ADR 0031). Saving still needs the network and fails with its own message.
 */
export function OfflineBanner() {
  const intl = useIntl();
  const online = useOnline();
  if (online) return null;
  return (
    <p
      role="status"
      className="flex items-center justify-center gap-2 border-b bg-muted px-4 py-2 text-center text-sm text-muted-foreground"
    >
      <WifiOff aria-hidden="true" className="size-4 shrink-0" />
      {intl.formatMessage({ id: "offline.banner" })}
    </p>
  );
}
