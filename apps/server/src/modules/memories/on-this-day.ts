/**
 * The calendar of "On this day" (issue #16): which memory dates count as the same days as a given
 * one in an earlier year. Dates are calendar days ("YYYY-MM-DD", the member's own), so no time zone
 * enters here. A 29 February stands for the 28th in years without one.
 */

const dayMs = 86_400_000;

function toDays(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / dayMs;
}

function fromDays(days: number): string {
  return new Date(days * dayMs).toISOString().slice(0, 10);
}

/** `date`'s month and day in `year`. */
function sameDayIn(year: number, date: string): number {
  const month = Number(date.slice(5, 7));
  const day = Number(date.slice(8, 10));
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return Date.UTC(year, month - 1, month === 2 && day === 29 && !leap ? 28 : day) / dayMs;
}

/** The "MM-DD" of every day within `windowDays` of `date` (the 28 and 29 February bring each other: `yearsAgo` decides). */
export function windowMonthDays(date: string, windowDays: number): string[] {
  const center = toDays(date);
  const monthDays = new Set<string>();
  for (let offset = -windowDays; offset <= windowDays; offset++) monthDays.add(fromDays(center + offset).slice(5));
  if (monthDays.has("02-28")) monthDays.add("02-29");
  if (monthDays.has("02-29")) monthDays.add("02-28");
  return [...monthDays];
}

/** The first day of `date`'s own window: memories from it on are this year's, not "on this day". */
export function windowStart(date: string, windowDays: number): string {
  return fromDays(toDays(date) - windowDays);
}

/**
 * How many years before `date` the day `memoryDate` falls within `windowDays` of the same month
 * and day; undefined when it does not (or only in `date`'s own year).
 */
export function yearsAgo(memoryDate: string, date: string, windowDays: number): number | undefined {
  const thisYear = Number(date.slice(0, 4));
  const memoryYear = Number(memoryDate.slice(0, 4));
  const [memoryDay, day] = [toDays(memoryDate), toDays(date)];
  // Near the new year the same days straddle two years: the answer may be a year more or less.
  for (const years of [thisYear - memoryYear, thisYear - memoryYear - 1, thisYear - memoryYear + 1]) {
    if (years < 1) continue;
    // The date taken back, or the memory brought forward, by as many years: either way round, so
    // that a 29 February meets the 28th whichever of the two years has none.
    const near =
      Math.abs(memoryDay - sameDayIn(thisYear - years, date)) <= windowDays ||
      Math.abs(sameDayIn(memoryYear + years, memoryDate) - day) <= windowDays;
    if (near) return years;
  }
  return undefined;
}
