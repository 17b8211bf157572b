import { describe, expect, it } from "vitest";
import { windowMonthDays, windowStart, yearsAgo } from "./on-this-day";

describe("on this day", () => {
  it("takes the days around the date, across a month and a year's end", () => {
    expect(windowMonthDays("2026-11-26", 3)).toEqual(["11-23", "11-24", "11-25", "11-26", "11-27", "11-28", "11-29"]);
    expect(windowMonthDays("2026-12-30", 3)).toEqual(["12-27", "12-28", "12-29", "12-30", "12-31", "01-01", "01-02"]);
    expect(windowMonthDays("2026-03-01", 1)).toEqual(["02-28", "03-01", "03-02", "02-29"]);
    expect(windowMonthDays("2026-11-26", 0)).toEqual(["11-26"]);
    expect(windowMonthDays("2024-02-29", 0)).toEqual(["02-29", "02-28"]);
    expect(windowStart("2026-01-02", 3)).toBe("2025-12-30");
  });

  it("counts the years back to the same days, and nothing from this year's own days", () => {
    expect(yearsAgo("2025-11-26", "2026-11-26", 3)).toBe(1);
    expect(yearsAgo("2021-11-29", "2026-11-26", 3)).toBe(5);
    expect(yearsAgo("2021-11-30", "2026-11-26", 3)).toBeUndefined();
    expect(yearsAgo("2026-11-24", "2026-11-26", 3)).toBeUndefined();
    // Across the new year: the 1 January 2025 is near the 30 December 2024, a year before 2025-12-30.
    expect(yearsAgo("2025-01-01", "2025-12-30", 3)).toBe(1);
    expect(yearsAgo("2024-12-29", "2026-01-01", 3)).toBe(1);
    expect(yearsAgo("2023-12-30", "2026-01-01", 3)).toBe(2);
    // A 29 February is remembered on the 28th when the year has none, and the other way round.
    expect(yearsAgo("2024-02-29", "2027-02-28", 0)).toBe(3);
    expect(yearsAgo("2023-02-28", "2024-02-29", 0)).toBe(1);
  });
});
