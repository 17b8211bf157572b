import { useSearchParams } from "react-router";

import { DevicePairing } from "@/features/frames/components/device-pairing";

/**
 * `/device?user_code=` (the frame's QR code: RFC 8628's `verification_uri_complete`), or `?code=`:
 * a member allows a frame by the code it shows (ADR 0076).
 */
export function DeviceRoute() {
  const [params] = useSearchParams();
  return <DevicePairing initialCode={params.get("user_code") ?? params.get("code") ?? ""} />;
}
