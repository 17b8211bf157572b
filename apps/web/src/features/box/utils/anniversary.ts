/**
 * How many years together today is the anniversary of, on the device's calendar (`today`,
 * "YYYY-MM-DD" in the member's time zone), or null when it is not: another day, or the first day
 * itself (year 0). A start on February 29 is marked on February 28 in a common year.
 */
export function anniversaryYears(since: string, today: string): number | null {
  const start = parts(since);
  const now = parts(today);
  if (!start || !now) return null;
  const markedDay = start.month === 2 && start.day === 29 && !isLeapYear(now.year) ? 28 : start.day;
  if (now.month !== start.month || now.day !== markedDay) return null;
  const years = now.year - start.year;
  return years > 0 ? years : null;
}

function parts(value: string): { year: number; month: number; day: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match ? { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) } : null;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
