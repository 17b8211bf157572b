import { FramePage } from "@/features/frame/components/frame-page";

/** `/frame`: the frame device's page (ADR 0076); no member signs in on it. */
export function FrameRoute() {
  return <FramePage />;
}
