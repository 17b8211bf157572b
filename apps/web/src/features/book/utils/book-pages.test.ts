import type { Memory, MemoryPage } from "@memory-box/contract";
import { describe, expect, it } from "vitest";

import { bookPhotos } from "@memory-box/contract/book-layout";
import { bookAuthors, bookListPath, bookMonths, walkBook } from "@/features/book/utils/book-pages";
import { bookRangeOf, inBook, isCalendarDay } from "@/features/book/utils/book-range";
import { paperOf, printRules } from "@/features/book/utils/paper";
import { fakeMemory, fakePhoto } from "@/testing/memory-fixtures";

const memory = (title: string, memory_date: string | null, name = "Ann") =>
  fakeMemory({ title, memory_date, profiles: { display_name: name } });

/** The list as the server pages it: newest first, undated last, `limit` a page, the cursor the next index. */
function pagedList(memories: Memory[]) {
  const requests: string[] = [];
  const fetchPage = (path: string): Promise<MemoryPage> => {
    requests.push(path);
    const params = new URL(path, "http://localhost").searchParams;
    const limit = Number(params.get("limit"));
    const from = params.get("from");
    let start = Number(params.get("cursor") ?? 0);
    if (!params.has("cursor") && from) {
      start = memories.findIndex((item) => item.memory_date === null || item.memory_date.slice(0, 7) <= from);
      if (start < 0) start = memories.length;
    }
    const items = memories.slice(start, start + limit);
    const next = start + limit < memories.length ? String(start + limit) : null;
    return Promise.resolve({ items, next_cursor: next, matched: memories.length, total: memories.length });
  };
  return { requests, fetchPage };
}

describe("a book's address", () => {
  it("names a year, with tags, from 1000 on", () => {
    expect(bookRangeOf("1990", new URLSearchParams("tag=Lisbon&tag=+summer+&tag=Lisbon&tag="))).toEqual({
      year: 1990,
      from: "1990-01-01",
      to: "1990-12-31",
      tags: ["Lisbon", "summer"],
    });
    expect(bookRangeOf("abc", new URLSearchParams())).toBeNull();
    expect(bookRangeOf("999", new URLSearchParams())).toBeNull();
    expect(bookRangeOf("0999", new URLSearchParams())).toBeNull();
    expect(bookRangeOf("19900", new URLSearchParams())).toBeNull();
  });

  it("names a range of days, either end open, or a tag; nothing at all is no book", () => {
    expect(bookRangeOf(undefined, new URLSearchParams("from=2025-03-01&to=2025-08-31"))).toEqual({
      year: null,
      from: "2025-03-01",
      to: "2025-08-31",
      tags: [],
    });
    expect(bookRangeOf(undefined, new URLSearchParams("from=2025-03-01"))?.to).toBeNull();
    expect(bookRangeOf(undefined, new URLSearchParams("tag=Lisbon"))).toEqual({
      year: null,
      from: null,
      to: null,
      tags: ["Lisbon"],
    });
    expect(bookRangeOf(undefined, new URLSearchParams())).toBeNull();
    expect(bookRangeOf(undefined, new URLSearchParams("from=2025-02-30"))).toBeNull();
    expect(bookRangeOf(undefined, new URLSearchParams("to=2025-8-31"))).toBeNull();
    expect(bookRangeOf(undefined, new URLSearchParams("from=2025-09-01&to=2025-08-31"))).toBeNull();
  });

  it("knows calendar days and which days are in a book", () => {
    expect(isCalendarDay("2024-02-29")).toBe(true);
    expect(isCalendarDay("2023-02-29")).toBe(false);
    expect(isCalendarDay("2023-13-01")).toBe(false);
    const range = { from: "1990-01-01", to: "1990-12-31" };
    expect(inBook(range, "1990-01-01")).toBe(true);
    expect(inBook(range, "1990-12-31")).toBe(true);
    expect(inBook(range, "1989-12-31")).toBe(false);
    expect(inBook(range, "1991-01-01")).toBe(false);
    expect(inBook(range, null)).toBe(false);
    expect(inBook({ from: null, to: null }, "1400-05-05")).toBe(true);
  });
});

describe("walking the list for a book", () => {
  it("starts at the book's last month, asks a hundred at a time, with the tags", () => {
    expect(bookListPath({ to: "1990-12-31", tags: ["a b", "c"] }, null)).toBe(
      "/api/v1/memories?tag=a+b&tag=c&from=1990-12&limit=100",
    );
    expect(bookListPath({ to: "1990-12-31", tags: [] }, "next")).toBe("/api/v1/memories?cursor=next&limit=100");
    expect(bookListPath({ to: null, tags: [] }, null)).toBe("/api/v1/memories?limit=100");
  });

  it("walks page after page, stops at the first memory before the book, and gives them oldest first", async () => {
    const year = Array.from({ length: 250 }, (_, index) => {
      const day = new Date(Date.UTC(1990, 11, 31) - index * 86_400_000 * 1.4).toISOString().slice(0, 10);
      return memory(`Day ${day}`, day);
    }).filter((item) => item.memory_date!.startsWith("1990"));
    const list = [
      memory("Later", "1991-02-01"),
      ...year,
      memory("Earlier", "1989-12-31"),
      ...Array.from({ length: 300 }, () => memory("Old", "1980-01-01")),
    ];
    const { requests, fetchPage } = pagedList(list);
    const book = await walkBook(bookRangeOf("1990", new URLSearchParams())!, fetchPage);
    expect(book.map((item) => item.title)).toEqual(year.map((item) => item.title).reverse());
    // 1990's memories and "Earlier" in three pages of a hundred; the older ones never asked for.
    expect(requests).toHaveLength(Math.ceil((year.length + 1) / 100));
  });

  it("keeps within a range's days, ends at the undated memories or the list's end", async () => {
    const list = [
      memory("August 31", "2025-08-31"),
      memory("August 30", "2025-08-30"),
      memory("March 1", "2025-03-01"),
      memory("Undated", null),
    ];
    const { fetchPage } = pagedList([memory("September", "2025-09-01"), ...list]);
    const range = bookRangeOf(undefined, new URLSearchParams("from=2025-03-01&to=2025-08-30"))!;
    expect((await walkBook(range, fetchPage)).map((item) => item.title)).toEqual(["March 1", "August 30"]);
    const open = bookRangeOf(undefined, new URLSearchParams("tag=x"))!;
    expect((await walkBook(open, pagedList(list).fetchPage)).map((item) => item.title)).toEqual([
      "March 1",
      "August 30",
      "August 31",
    ]);
    expect(await walkBook(open, pagedList([]).fetchPage)).toEqual([]);
  });
});

describe("a book's pages", () => {
  it("groups its memories by month, oldest first", () => {
    const months = bookMonths([memory("a", "1990-01-03"), memory("b", "1990-01-20"), memory("c", "1990-07-01")]);
    expect(months.map(({ month, memories }) => [month, memories.map((item) => item.title)])).toEqual([
      ["1990-01", ["a", "b"]],
      ["1990-07", ["c"]],
    ]);
  });

  it("shows the cover photo first, then the others in order, four at most", () => {
    const photos = Array.from({ length: 6 }, () => fakePhoto());
    expect(bookPhotos({ photos, cover_photo_id: photos[2]!.id })).toEqual([photos[2], photos[0], photos[1], photos[3]]);
    expect(bookPhotos({ photos, cover_photo_id: null })).toEqual(photos.slice(0, 4));
    expect(bookPhotos({ photos: [], cover_photo_id: null })).toEqual([]);
  });

  it("names who wrote it, most memories first", () => {
    expect(
      bookAuthors([memory("a", "1990-01-01", "Ben"), memory("b", "1990-01-02", "Ann"), memory("c", "1990-01-03", "Ann")]),
    ).toEqual(["Ann", "Ben"]);
  });

  it("prints on the chosen paper, wider on the binding side, numbered but for the cover", () => {
    expect(paperOf("letter", "de-DE")).toBe("letter");
    expect(paperOf(null, "en-US")).toBe("letter");
    expect(paperOf("legal", "en-GB")).toBe("a4");
    const rules = printRules("a4");
    expect(rules).toContain("size: 210mm 297mm");
    expect(rules).toMatch(/@page :left \{ margin-left: 15mm; margin-right: 25mm; \}/);
    expect(rules).toMatch(/@page :right \{ margin-left: 25mm; margin-right: 15mm; \}/);
    expect(rules).toContain("content: counter(page)");
    expect(rules).toMatch(/@page :first \{ @bottom-center \{ content: none; \} \}/);
    expect(printRules("letter")).toContain("size: 8.5in 11in");
  });
});
