import { useSearchParams } from "react-router";

import { DevicePairing } from "@/features/frames/components/device-pairing";

/** `/device?code=`: a member allows a frame by the code it shows (ADR 0076). */
export function DeviceRoute() {
  const [params] = useSearchParams();
  return <DevicePairing initialCode={params.get("code") ?? ""} />;
}
