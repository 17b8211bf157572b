/** TanStack Query keys of the memories feature; invalidate through these, never hand-written arrays. */
export const memoryKeys = {
  all: ["memories"] as const,
  lists: () => [...memoryKeys.all, "list"] as const,
  list: (filter: { q: string; tag: string }) => [...memoryKeys.lists(), filter] as const,
  details: () => [...memoryKeys.all, "detail"] as const,
  detail: (id: string) => [...memoryKeys.details(), id] as const,
  tags: () => [...memoryKeys.all, "tags"] as const,
  onThisDays: () => [...memoryKeys.all, "on-this-day"] as const,
  neighbourLists: () => [...memoryKeys.all, "neighbours"] as const,
  neighbours: (id: string) => [...memoryKeys.neighbourLists(), id] as const,
  onThisDay: (date: string) => [...memoryKeys.onThisDays(), date] as const,
  /** A memory's comments, and its reactions with the member's own (per member, unlike the memory's counts). */
  comments: (id: string) => [...memoryKeys.all, "comments", id] as const,
  reactions: (id: string) => [...memoryKeys.all, "reactions", id] as const,
};
