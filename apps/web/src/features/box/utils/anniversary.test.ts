import { describe, expect, it } from "vitest";

import { anniversaryYears } from "@/features/box/utils/anniversary";

describe("the box's anniversary (ADR 0065)", () => {
  it("counts the years on the day of together-since, and only then", () => {
    expect(anniversaryYears("2019-06-01", "2026-06-01")).toBe(7);
    expect(anniversaryYears("2025-06-01", "2026-06-01")).toBe(1);
    expect(anniversaryYears("2019-06-01", "2026-06-02")).toBeNull();
    expect(anniversaryYears("2019-06-01", "2026-05-31")).toBeNull();
    expect(anniversaryYears("2019-06-01", "2026-07-01")).toBeNull();
  });

  it("says nothing on the first day itself (year 0), nor before it", () => {
    expect(anniversaryYears("2026-06-01", "2026-06-01")).toBeNull();
    expect(anniversaryYears("2027-06-01", "2026-06-01")).toBeNull();
  });

  it("marks a start on February 29 on February 28 in a common year, on the 29th in a leap year", () => {
    expect(anniversaryYears("2020-02-29", "2023-02-28")).toBe(3);
    expect(anniversaryYears("2020-02-29", "2023-03-01")).toBeNull();
    expect(anniversaryYears("2020-02-29", "2024-02-29")).toBe(4);
    expect(anniversaryYears("2020-02-29", "2024-02-28")).toBeNull();
    // 2100 is not a leap year; 2000 was.
    expect(anniversaryYears("1996-02-29", "2100-02-28")).toBe(104);
    expect(anniversaryYears("1996-02-29", "2000-02-28")).toBeNull();
    // A start on the 28th stays on the 28th.
    expect(anniversaryYears("2019-02-28", "2024-02-28")).toBe(5);
    expect(anniversaryYears("2019-02-28", "2024-02-29")).toBeNull();
  });

  it("ignores what is not a calendar date", () => {
    expect(anniversaryYears("", "2026-06-01")).toBeNull();
    expect(anniversaryYears("June 1, 2019", "2026-06-01")).toBeNull();
  });
});
