import { lazy, Suspense } from "react";
import type { Place } from "@memory-box/contract";
import { MapPinIcon } from "lucide-react";
import { Link } from "react-router";

import { paths } from "@/config/paths";
import { nearParam, placeLabel } from "@/features/places/utils/place-names";
import { useIntl } from "@/lib/intl";

// MapLibre is large: its code comes only with a memory that has a place.
const PlaceMiniMap = lazy(() => import("@/features/places/map/place-mini-map"));

/** A memory's place on its page: "Sintra, Portugal" with a pin. */
export function MemoryPlaceLine({ place }: { place: Place }) {
  const intl = useIntl();
  return (
    <p className="flex items-center gap-2 text-muted-foreground">
      <MapPinIcon aria-hidden="true" className="size-4 shrink-0" />
      <bdi className="break-words">{placeLabel(place.name, place.country_code, intl)}</bdi>
    </p>
  );
}

/** The memory's place on a small map, and the way to the memories near it. */
export function MemoryPlaceMap({ place }: { place: Place }) {
  const intl = useIntl();
  return (
    <div className="flex flex-col gap-2">
      <Suspense fallback={<div className="h-48 w-full rounded-md bg-muted" />}>
        <PlaceMiniMap place={place} />
      </Suspense>
      <Link
        to={paths.memoriesNear(nearParam(place), place.name)}
        className="self-start text-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:underline"
      >
        {intl.formatMessage({ id: "places.detail.near" })}
      </Link>
    </div>
  );
}
