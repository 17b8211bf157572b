import { describe, expect, it } from "vitest";
import { currentPeriod, localTime } from "./digest-period";

describe("digest periods on the member's clock", () => {
  it("a daily digest's period is today from 08:00 on, yesterday before it", () => {
    expect(currentPeriod("daily", "Europe/Lisbon", new Date("2026-11-28T07:59:00Z"))).toBe("2026-11-27");
    expect(currentPeriod("daily", "Europe/Lisbon", new Date("2026-11-28T08:00:00Z"))).toBe("2026-11-28");
    // 08:00 in Berlin is 07:00 UTC.
    expect(currentPeriod("daily", "Europe/Berlin", new Date("2026-11-28T07:00:00Z"))).toBe("2026-11-28");
    expect(currentPeriod("daily", "Europe/Berlin", new Date("2026-11-28T06:59:59Z"))).toBe("2026-11-27");
  });

  it("a weekly digest's period is this week's Monday from Monday 08:00 on", () => {
    // Monday 30 November 2026, 08:00 in Auckland (NZDT, UTC+13) is Sunday 29 November, 19:00 UTC.
    expect(localTime(new Date("2026-11-29T19:00:00Z"), "Pacific/Auckland")).toEqual({ date: "2026-11-30", weekday: 0, hour: 8 });
    expect(currentPeriod("weekly", "Pacific/Auckland", new Date("2026-11-29T18:59:00Z"))).toBe("2026-11-23");
    expect(currentPeriod("weekly", "Pacific/Auckland", new Date("2026-11-29T19:00:00Z"))).toBe("2026-11-30");
    // The same instant is still last week's period in UTC, and stays so until Monday 08:00 UTC.
    expect(currentPeriod("weekly", "UTC", new Date("2026-11-29T19:00:00Z"))).toBe("2026-11-23");
    expect(currentPeriod("weekly", "UTC", new Date("2026-11-30T08:00:00Z"))).toBe("2026-11-30");
    // Any day of the week belongs to its Monday, across a month's end.
    expect(currentPeriod("weekly", "UTC", new Date("2026-12-06T23:59:00Z"))).toBe("2026-11-30");
  });

  it("follows daylight saving time (Auckland moves to NZST on 5 April 2026)", () => {
    // 08:00 NZST (UTC+12) on Monday 6 April 2026 is Sunday 5 April, 20:00 UTC.
    expect(currentPeriod("weekly", "Pacific/Auckland", new Date("2026-04-05T19:59:00Z"))).toBe("2026-03-30");
    expect(currentPeriod("weekly", "Pacific/Auckland", new Date("2026-04-05T20:00:00Z"))).toBe("2026-04-06");
  });
});
