import type { MemoryTimelineQuery } from "@memory-box/contract";

/**
 * The API paths of the home screen's requests, built in one place: the first screen's script
 * (ADR 0026) must ask for exactly what the list query asks for, or the app would ask again.
 */

export const tagsPath = "/api/v1/tags";

/** The list's place filters (issue #32), as the API takes them; see `MemoryListQuery`. */
export type PlaceFilter = Pick<MemoryTimelineQuery, "country" | "place" | "within" | "near">;

export interface MemoriesPathParams extends PlaceFilter {
  q?: string;
  /** Memories carrying every one of these tags (repeated `tag`). */
  tags?: readonly string[];
  /** A timeline month (`YYYY-MM`) or `undated` to start at; the API ignores it beside a cursor, so it is left out then. */
  from?: string;
  cursor?: string | null;
  limit?: number;
}

/** `/api/v1/memories` with the filter, start, cursor and limit that are set, in a fixed order. */
export function memoriesPath({ from, cursor, limit, ...filter }: MemoriesPathParams = {}): string {
  const params = filterParams(filter);
  if (from && !cursor) params.set("from", from);
  if (cursor) params.set("cursor", cursor);
  if (limit !== undefined) params.set("limit", String(limit));
  const query = params.toString();
  return `/api/v1/memories${query ? `?${query}` : ""}`;
}

/** The timeline index (memories per month) for the list's search and filters. */
export function timelinePath(filter: { q?: string; tags?: readonly string[] } & PlaceFilter = {}): string {
  const query = filterParams(filter).toString();
  return `/api/v1/memories/timeline${query ? `?${query}` : ""}`;
}

function filterParams({
  q,
  tags = [],
  country,
  place,
  within,
  near,
}: { q?: string; tags?: readonly string[] } & PlaceFilter): URLSearchParams {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  for (const tag of tags) params.append("tag", tag);
  if (country) params.set("country", country);
  if (place) params.set("place", place);
  if (within) params.set("within", within);
  if (near) params.set("near", near);
  return params;
}

/** "On this day" for the member's calendar date (YYYY-MM-DD). */
export function onThisDayPath(date: string): string {
  return `/api/v1/memories/on-this-day?date=${date}`;
}
