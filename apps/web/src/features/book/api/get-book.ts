import type { Memory, MemoryPage, MemoryTimeline } from "@memory-box/contract";
import { useQuery } from "@tanstack/react-query";

import { walkBook } from "@/features/book/utils/book-pages";
import type { BookRange } from "@/features/book/utils/book-range";
import { apiFetch } from "@/lib/api-client";

/** A book's memories (oldest first) and how many memories its tags match that have no date (left out). */
export interface Book {
  memories: Memory[];
  undated: number;
}

/** `GET /api/v1/memories/timeline` for the book's tags: its `undated` count. */
export function bookTimelinePath(tags: readonly string[]): string {
  const params = new URLSearchParams();
  for (const tag of tags) params.append("tag", tag);
  const query = params.toString();
  return `/api/v1/memories/timeline${query ? `?${query}` : ""}`;
}

export async function getBook(range: BookRange, signal?: AbortSignal): Promise<Book> {
  const [memories, timeline] = await Promise.all([
    walkBook(range, (path) => apiFetch<MemoryPage>(path, { signal })),
    apiFetch<MemoryTimeline>(bookTimelinePath(range.tags), { signal }),
  ]);
  return { memories, undated: timeline.undated };
}

/** Under the memories' key, so a memory saved or deleted elsewhere in the app refreshes an open book. */
export function bookKey(range: BookRange) {
  return ["memories", "book", { from: range.from, to: range.to, tags: range.tags }] as const;
}

export function useBook(range: BookRange) {
  return useQuery({
    queryKey: bookKey(range),
    queryFn: ({ signal }) => getBook(range, signal),
    // A book is printed as it is: no refetch when the print dialog hands the focus back.
    refetchOnWindowFocus: false,
  });
}
