import type { DeviceAuthorization } from "@memory-box/contract";
import { formatUserCode, normalizeUserCode } from "@memory-box/contract";
import { CircleAlertIcon, Maximize, MonitorSmartphone, WifiOff } from "lucide-react";
import { useEffect, useState } from "react";

import { IconCircle } from "@/components/icon-circle";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import type { FrameTokens } from "@/features/frame/api/frame-session";
import { pairFrame, type NewCodeReason } from "@/features/frame/api/pairing";
import { canGoFullScreen, goFullScreen } from "@/features/frame/components/full-screen";
import { QrCode } from "@/features/frame/components/qr-code";
import { useIntl } from "@/lib/intl";

type Shown = { authorization: DeviceAuthorization; reason: NewCodeReason } | null;

/**
 * The frame's first screen (RFC 8628): a code, big, with where to enter it and a QR code of the
 * address with the code in it; it polls until a member allows the frame on their phone, and shows
 * a new code when one expires or is declined. `removed`: the frame was paired and removed since.
 */
export function PairingScreen({
  removed,
  onPaired,
  wait,
}: {
  removed: boolean;
  onPaired: (tokens: FrameTokens) => void;
  /** The pairing's clock (tests). */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}) {
  const intl = useIntl();
  const [shown, setShown] = useState<Shown>(null);
  const [reachable, setReachable] = useState(true);

  useEffect(() => {
    const controller = new AbortController();
    pairFrame({
      signal: controller.signal,
      wait,
      onCode: (authorization, reason) => setShown({ authorization, reason }),
      onReachable: setReachable,
    }).then(onPaired, (error: unknown) => {
      if (!controller.signal.aborted) console.error("The frame could not pair:", error);
    });
    return () => controller.abort();
  }, [onPaired, wait]);

  const notice =
    shown?.reason === "denied"
      ? intl.formatMessage({ id: "frame.pairing.declined" })
      : shown?.reason === "expired"
        ? intl.formatMessage({ id: "frame.pairing.expired" })
        : removed
          ? intl.formatMessage({ id: "frame.pairing.removed" })
          : undefined;

  return (
    <main className="flex min-h-svh items-center justify-center bg-muted p-4">
      <Card className="w-full max-w-3xl">
        <CardContent className="flex flex-col items-center gap-6 text-center md:flex-row md:items-stretch md:gap-10 md:text-start">
          <div className="flex flex-1 flex-col items-center gap-4 md:items-start">
            <IconCircle icon={MonitorSmartphone} />
            <h1 className="text-2xl font-semibold text-balance">{intl.formatMessage({ id: "frame.pairing.title" })}</h1>
            {notice && (
              <Alert variant={shown?.reason === "denied" || removed ? "destructive" : "default"} className="text-start">
                <CircleAlertIcon aria-hidden="true" />
                <AlertDescription>
                  <p>{notice}</p>
                </AlertDescription>
              </Alert>
            )}
            {shown ? (
              <>
                <p className="text-lg text-balance text-muted-foreground">
                  {intl.formatMessage(
                    { id: "frame.pairing.instructions" },
                    { uri: shown.authorization.verification_uri.replace(/^https?:\/\//, "") },
                  )}
                </p>
                <p
                  className="font-mono text-4xl font-semibold tracking-widest whitespace-nowrap tabular-nums sm:text-6xl"
                  data-testid="frame-user-code"
                  dir="ltr"
                >
                  {formatUserCode(normalizeUserCode(shown.authorization.user_code) ?? shown.authorization.user_code)}
                </p>
                {reachable ? (
                  <Spinner size="sm" className="gap-2 text-sm text-muted-foreground">
                    {intl.formatMessage({ id: "frame.pairing.waiting" })}
                  </Spinner>
                ) : (
                  <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
                    <WifiOff aria-hidden="true" className="size-4" />
                    {intl.formatMessage({ id: "frame.pairing.unreachable" })}
                  </p>
                )}
              </>
            ) : (
              <p className="text-muted-foreground" role="status">
                {intl.formatMessage({ id: reachable ? "frame.pairing.loading" : "frame.pairing.unreachable" })}
              </p>
            )}
          </div>
          {shown && (
            <figure className="flex flex-col items-center gap-2">
              <QrCode
                value={shown.authorization.verification_uri_complete}
                label={intl.formatMessage({ id: "frame.pairing.qrLabel" })}
                className="size-48 rounded-md sm:size-56"
              />
              <figcaption className="max-w-56 text-sm text-balance text-muted-foreground">
                {intl.formatMessage({ id: "frame.pairing.scan" })}
              </figcaption>
              {canGoFullScreen() && (
                <Button type="button" variant="outline" size="sm" className="mt-2" onClick={goFullScreen}>
                  <Maximize aria-hidden="true" />
                  {intl.formatMessage({ id: "frame.fullScreen" })}
                </Button>
              )}
            </figure>
          )}
        </CardContent>
      </Card>
    </main>
  );
}
