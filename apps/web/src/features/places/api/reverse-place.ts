import type { GeoPoint, ReversePlaceResult } from "@memory-box/contract";
import { useQuery } from "@tanstack/react-query";

import { placeKeys } from "@/features/places/api/place-keys";
import { apiFetch } from "@/lib/api-client";

/** The nearest known place to `point`, or null when none is near. */
export function reversePlace(point: GeoPoint, { signal }: { signal?: AbortSignal } = {}): Promise<ReversePlaceResult> {
  const query = new URLSearchParams({ latitude: String(point.latitude), longitude: String(point.longitude) });
  return apiFetch<ReversePlaceResult>(`/api/v1/places/reverse?${query}`, { signal });
}

/** The name of the place at `point` (none asked for while it is null). */
export function useReversePlace(point: GeoPoint | null) {
  return useQuery({
    queryKey: placeKeys.reverse(point?.latitude ?? 0, point?.longitude ?? 0),
    queryFn: ({ signal }) => reversePlace(point!, { signal }),
    enabled: point !== null,
    staleTime: Infinity,
    retry: false,
  });
}
