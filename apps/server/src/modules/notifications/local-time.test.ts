import { describe, expect, it } from "vitest";
import { afterQuietHours, localTime } from "./local-time";

// A device's clock (ADR 0059): quiet hours and "On this day" are kept in its own time zone.

describe("localTime", () => {
  it("reads the day and minute in the device's time zone", () => {
    const at = new Date("2026-11-28T23:30:00Z");
    expect(localTime(at, "UTC")).toEqual({ day: "2026-11-28", minute: 23 * 60 + 30, second: 0 });
    expect(localTime(at, "Asia/Tokyo")).toEqual({ day: "2026-11-29", minute: 8 * 60 + 30, second: 0 });
    expect(localTime(at, "America/Los_Angeles")).toEqual({ day: "2026-11-28", minute: 15 * 60 + 30, second: 0 });
  });
});

describe("afterQuietHours", () => {
  const night = { from: "22:00", to: "07:00" };

  it("holds what falls in quiet hours spanning midnight until they end on the device's clock", () => {
    // 23:10 in Lisbon (UTC in winter): held until 07:00 the next morning.
    expect(afterQuietHours(new Date("2026-11-28T23:10:30Z"), night, "Europe/Lisbon").toISOString()).toBe(
      "2026-11-29T07:00:00.000Z",
    );
    // 05:00 in Tokyo is 20:00 UTC the day before: held until 07:00 Tokyo, 22:00 UTC.
    expect(afterQuietHours(new Date("2026-11-28T20:00:00Z"), night, "Asia/Tokyo").toISOString()).toBe("2026-11-28T22:00:00.000Z");
  });

  it("lets through what falls outside them, at their end, or when there are none", () => {
    const noon = new Date("2026-11-28T12:00:00Z");
    expect(afterQuietHours(noon, night, "UTC")).toBe(noon);
    expect(afterQuietHours(new Date("2026-11-28T07:00:00Z"), night, "UTC").toISOString()).toBe("2026-11-28T07:00:00.000Z");
    expect(afterQuietHours(noon, null, "UTC")).toBe(noon);
    expect(afterQuietHours(noon, { from: "09:00", to: "09:00" }, "UTC")).toBe(noon);
  });

  it("keeps quiet hours within one day (13:00 to 15:00)", () => {
    const at = new Date("2026-07-01T13:30:00Z");
    // Berlin in summer is UTC+2: 15:30 there, outside; 11:30 UTC is 13:30 there, inside until 15:00 (13:00 UTC).
    expect(afterQuietHours(at, { from: "13:00", to: "15:00" }, "Europe/Berlin")).toBe(at);
    expect(afterQuietHours(new Date("2026-07-01T11:30:00Z"), { from: "13:00", to: "15:00" }, "Europe/Berlin").toISOString()).toBe(
      "2026-07-01T13:00:00.000Z",
    );
  });
});
