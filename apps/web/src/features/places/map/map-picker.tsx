import type { GeoPoint } from "@memory-box/contract";

import { formatCoordinates } from "@/features/places/utils/place-names";
import { useIntl } from "@/lib/intl";

/**
 * A stand-in for the interactive map the places map's work brings (a tap sets the point); that
 * version replaces this file, with the same props. Loaded only through `React.lazy`.
 */
export default function MapPicker({ initial, onPick }: { initial: GeoPoint | null; onPick: (point: GeoPoint) => void }) {
  const intl = useIntl();
  const point = initial ?? { latitude: 0, longitude: 0 };
  return (
    <button
      type="button"
      className="flex h-64 w-full items-center justify-center rounded-md border text-sm text-muted-foreground"
      onClick={() => onPick(point)}
    >
      {formatCoordinates(point, intl)}
    </button>
  );
}
