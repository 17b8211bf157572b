/**
 * What a book holds (issue #35, ADR 0069): the memories dated from `from` to `to` (calendar days,
 * both included; null leaves that end open) carrying every one of `tags`. A year's book is its
 * January 1 to December 31 and names its `year`.
 */
export interface BookRange {
  year: number | null;
  from: string | null;
  to: string | null;
  tags: readonly string[];
}

const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `value` is a real calendar day written "YYYY-MM-DD". */
export function isCalendarDay(value: string): boolean {
  const match = dayPattern.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1) return false;
  const date = new Date(Date.UTC(2000, month - 1, 1));
  date.setUTCFullYear(year);
  date.setUTCMonth(month - 1, day);
  return date.getUTCDate() === day && date.getUTCMonth() === month - 1;
}

/**
 * The book an address asks for, or null when it names none a member could mean:
 * - `/book/1990`: the year (1000 to 9999), with `?tag=` (repeated) narrowing it;
 * - `/book?from=2025-03-01&to=2025-08-31`: a range of days (either end may be left out), `tag` too;
 * - `/book?tag=Lisbon`: every dated memory carrying the tag.
 * A `/book` naming neither days nor tags is no book (the collection whole is not one).
 */
export function bookRangeOf(yearParam: string | undefined, search: URLSearchParams): BookRange | null {
  const tags = [
    ...new Set(
      search
        .getAll("tag")
        .map((tag) => tag.trim())
        .filter((tag) => tag !== ""),
    ),
  ];
  if (yearParam !== undefined) {
    if (!/^\d{4}$/.test(yearParam) || Number(yearParam) < 1000) return null;
    return { year: Number(yearParam), from: `${yearParam}-01-01`, to: `${yearParam}-12-31`, tags };
  }
  const from = search.get("from") || null;
  const to = search.get("to") || null;
  if ((from !== null && !isCalendarDay(from)) || (to !== null && !isCalendarDay(to))) return null;
  if (from !== null && to !== null && from > to) return null;
  if (from === null && to === null && tags.length === 0) return null;
  return { year: null, from, to, tags };
}

/** Whether a memory's date falls within the book's days; an undated memory is in no book. */
export function inBook(range: Pick<BookRange, "from" | "to">, memoryDate: string | null): boolean {
  if (memoryDate === null) return false;
  if (range.from !== null && memoryDate < range.from) return false;
  if (range.to !== null && memoryDate > range.to) return false;
  return true;
}
