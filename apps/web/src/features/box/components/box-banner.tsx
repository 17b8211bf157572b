import { useBox } from "@/features/box/api/box";
import { BoxBannerView } from "@/features/box/components/box-banner-view";

/** Home's header of the box (ADR 0065), from what the server answered; nothing until it has. */
export function BoxBanner({ today }: { today: string }) {
  const box = useBox().data;
  return box ? <BoxBannerView box={box} today={today} /> : null;
}
