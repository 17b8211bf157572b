import { createContext, use, type ComponentType } from "react";
import type { GeoPoint, Place } from "@memory-box/contract";

import type { PlaceFilter } from "@/features/memories/api/list-paths";
import type { FormPlace } from "@/features/memories/utils/memory-input";

export interface PlaceFieldProps {
  /** The field's id, for its label. */
  id: string;
  value: FormPlace | null;
  onChange: (place: FormPlace | null) => void;
  /** Where one of the memory's photos was taken, to offer while the memory has no place. */
  photoLocation: GeoPoint | null;
  disabled: boolean;
  /** The rule the place breaks (from the form's check or the server). */
  problem?: string;
  /** The name's length once it nears its limit ("180 / 200"). */
  count?: string;
}

export interface PlaceFiltersProps {
  filter: PlaceFilter;
  /** The name of the place `near` is near, when the link that set it gave one. */
  nearName: string;
  /** Sets one place filter ("" clears it). */
  onChange: (key: keyof PlaceFilter, value: string) => void;
}

/**
 * What the memory screens show of places (issue #32), made by the places feature and handed in by
 * the app (app/place-parts.tsx), as features never import each other: the form's "Place" field, a
 * memory's place line and small map, and home's place filters. Without them (a screen rendered on
 * its own), nothing of places shows.
 */
export interface MemoryPlaceParts {
  PlaceField: ComponentType<PlaceFieldProps>;
  PlaceLine: ComponentType<{ place: Place }>;
  PlaceMap: ComponentType<{ place: Place }>;
  PlaceFilters: ComponentType<PlaceFiltersProps>;
}

export const MemoryPlacePartsContext = createContext<MemoryPlaceParts | null>(null);

export function usePlaceParts(): MemoryPlaceParts | null {
  return use(MemoryPlacePartsContext);
}
