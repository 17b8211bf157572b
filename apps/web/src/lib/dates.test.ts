import { describe, expect, it } from "vitest";

import { formatSince } from "./dates";

describe("formatSince", () => {
  const now = new Date("2026-11-25T12:00:00Z");
  it.each([
    ["2026-11-25T11:59:30Z", "just now"],
    ["2026-11-25T11:55:00Z", "5 minutes ago"],
    ["2026-11-25T09:00:00Z", "3 hours ago"],
    ["2026-11-24T12:00:00Z", "yesterday"],
    ["2026-11-04T12:00:00Z", "3 weeks ago"],
    ["2025-11-25T12:00:00Z", "last year"],
  ])("%s reads %s", (iso, expected) => {
    expect(formatSince(iso, now)).toBe(expected);
  });
});
