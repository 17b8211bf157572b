import type { Place } from "@memory-box/contract";

import { formatCoordinates } from "@/features/places/utils/place-names";
import { useIntl } from "@/lib/intl";

/**
 * A stand-in for the small map of a memory's place that the places map's work brings; that
 * version replaces this file, with the same props. Loaded only through `React.lazy`.
 */
export default function PlaceMiniMap({ place }: { place: Place }) {
  const intl = useIntl();
  return (
    <div
      className="flex h-48 w-full items-center justify-center rounded-md border text-sm text-muted-foreground"
      aria-hidden="true"
    >
      {formatCoordinates(place, intl)}
    </div>
  );
}
