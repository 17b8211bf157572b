import type { MemoryFilter } from "@/features/memories/api/get-memories";

/** TanStack Query keys of the memories feature; invalidate through these, never hand-written arrays. */
export const memoryKeys = {
  all: ["memories"] as const,
  lists: () => [...memoryKeys.all, "list"] as const,
  /** A list for a filter, started at a timeline month (`from`) or, without it, at the newest. */
  list: (filter: MemoryFilter & { from?: string }) => [...memoryKeys.lists(), filter] as const,
  /** Under the lists: it counts what they hold, so whatever makes them stale makes it stale too. */
  timeline: (filter: MemoryFilter) => [...memoryKeys.lists(), "timeline", filter] as const,
  details: () => [...memoryKeys.all, "detail"] as const,
  detail: (id: string) => [...memoryKeys.details(), id] as const,
  tags: () => [...memoryKeys.all, "tags"] as const,
  /** The countries the collection has memories in (the list's country filter), with their counts. */
  countries: () => [...memoryKeys.all, "countries"] as const,
  onThisDays: () => [...memoryKeys.all, "on-this-day"] as const,
  neighbourLists: () => [...memoryKeys.all, "neighbours"] as const,
  neighbours: (id: string) => [...memoryKeys.neighbourLists(), id] as const,
  onThisDay: (date: string) => [...memoryKeys.onThisDays(), date] as const,
  /** A memory's comments, and its reactions with the member's own (per member, unlike the memory's counts). */
  comments: (id: string) => [...memoryKeys.all, "comments", id] as const,
  reactions: (id: string) => [...memoryKeys.all, "reactions", id] as const,
};

/** Whether `queryKey` is a timeline's (it sits under the lists). */
export function isTimelineKey(queryKey: readonly unknown[]): boolean {
  const timeline = memoryKeys.timeline({ q: "", tags: [] });
  return queryKey.length === timeline.length && timeline.slice(0, -1).every((part, index) => queryKey[index] === part);
}
