/**
 * Limits shared by the form and the server. A module of their own, without zod, so that a screen
 * that only needs a limit (home's filters) does not load the contract's schemas with it.
 */
export const MemoryLimits = {
  titleMaxLength: 200,
  contentMaxLength: 20_000,
  tagMaxLength: 50,
  maxTags: 30,
  maxPhotos: 100,
  pageSizeDefault: 30,
  pageSizeMax: 100,
  /** A memory's date is from this year on (issue #34: "0001-01-01" was a typo, not a memory)… */
  earliestYear: 1000,
  /** …to the end of the year after this one (a trip planned for next summer may be dated). */
  latestYearsAhead: 1,
} as const;

/** The last year a memory may be dated in, by `today`'s year (the server's clock, or the device's). */
export function latestMemoryYear(today: Date = new Date()): number {
  return today.getFullYear() + MemoryLimits.latestYearsAhead;
}

/** Whether a calendar date ("2024-06-01") falls in the years a memory may have. */
export function isMemoryYear(value: string, today: Date = new Date()): boolean {
  const year = Number(value.slice(0, 4));
  return year >= MemoryLimits.earliestYear && year <= latestMemoryYear(today);
}
