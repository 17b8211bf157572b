import type { Memory, MemoryPage } from "@memory-box/contract";
import { bookAuthorNames } from "@memory-box/contract/book-layout";

import { type BookRange, inBook } from "@/features/book/utils/book-range";

/** The list's largest page (`MemoryLimits.pageSizeMax`): a year of memories in a few requests. */
export const bookPageSize = 100;

/** `GET /api/v1/memories` for one page of a book's walk (ADR 0069). */
export function bookListPath(range: Pick<BookRange, "to" | "tags">, cursor: string | null): string {
  const params = new URLSearchParams();
  for (const tag of range.tags) params.append("tag", tag);
  // The list runs newest first: a book ending on a day starts at that day's month.
  if (range.to !== null && cursor === null) params.set("from", range.to.slice(0, 7));
  if (cursor !== null) params.set("cursor", cursor);
  params.set("limit", String(bookPageSize));
  return `/api/v1/memories?${params.toString()}`;
}

/**
 * The memories of a book, oldest first: the list's pages walked from the book's last month (newest
 * first, undated last) until a memory dated before the book, an undated one, or the list's end.
 * Each page brings its memories' photos: one request per hundred memories, none per memory.
 */
export async function walkBook(range: BookRange, fetchPage: (path: string) => Promise<MemoryPage>): Promise<Memory[]> {
  const memories: Memory[] = [];
  let cursor: string | null = null;
  for (;;) {
    const page: MemoryPage = await fetchPage(bookListPath(range, cursor));
    let past = false;
    for (const memory of page.items) {
      if (memory.memory_date === null || (range.from !== null && memory.memory_date < range.from)) {
        past = true;
        break;
      }
      if (inBook(range, memory.memory_date)) memories.push(memory);
    }
    if (past || page.next_cursor === null) break;
    cursor = page.next_cursor;
  }
  return memories.reverse();
}

/** One month of a book: `YYYY-MM` and its memories, oldest first. */
export interface BookMonth {
  month: string;
  memories: Memory[];
}

/** The book's memories (oldest first) by month, in the same order: the contents page's sections. */
export function bookMonths(memories: readonly Memory[]): BookMonth[] {
  const months: BookMonth[] = [];
  for (const memory of memories) {
    const month = memory.memory_date!.slice(0, 7);
    const last = months.at(-1);
    if (last?.month === month) last.memories.push(memory);
    else months.push({ month, memories: [memory] });
  }
  return months;
}

/** The names of who wrote the book's memories, most memories first (the cover's "Ann & Ben"). */
export function bookAuthors(memories: readonly Memory[]): string[] {
  return bookAuthorNames(memories.map((memory) => memory.profiles?.display_name));
}
