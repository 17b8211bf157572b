import { lazy } from "react";

import type { MemoryPlaceParts } from "@/features/memories/components/place-parts";
import { MemoryPlaceLine, MemoryPlaceMap } from "@/features/places/components/memory-place";
import { PlaceFilters } from "@/features/places/components/place-filters";

/**
 * The places feature's parts of the memory screens. The form's field (its search, its map dialog)
 * comes with the form, which is itself loaded when it opens: never with home.
 */
export const placeParts: MemoryPlaceParts = {
  PlaceField: lazy(() => import("@/features/places/components/place-field").then(({ PlaceField }) => ({ default: PlaceField }))),
  PlaceLine: MemoryPlaceLine,
  PlaceMap: MemoryPlaceMap,
  PlaceFilters,
};
