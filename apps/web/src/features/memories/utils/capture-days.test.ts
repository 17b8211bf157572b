import { describe, expect, it } from "vitest";
import { captureDayItems, groupByCaptureDay, offersOnePerDay } from "./capture-days";

const photo = (id: string, taken_at: string | null) => ({ id, taken_at });

describe("grouping chosen photos by capture day (ADR 0063)", () => {
  it("puts 12 photos from 3 days into 3 days, oldest first, each in the order chosen", () => {
    const photos = [
      ...["a", "b", "c", "d"].map((id) => photo(id, "2026-01-04T18:00:00")),
      ...["e", "f", "g", "h", "i"].map((id) => photo(id, "2026-01-02T09:30:00")),
      ...["j", "k", "l"].map((id) => photo(id, "2026-01-03T23:59:59")),
    ];
    const grouped = groupByCaptureDay(photos);
    expect(grouped.days.map((day) => [day.date, day.photos.map((p) => p.id).join("")])).toEqual([
      ["2026-01-02", "efghi"],
      ["2026-01-03", "jkl"],
      ["2026-01-04", "abcd"],
    ]);
    expect(grouped.undated).toEqual([]);
    expect(offersOnePerDay(grouped)).toBe(true);
  });

  it("keeps photos without a capture date apart", () => {
    const grouped = groupByCaptureDay([photo("a", null), photo("b", "2026-01-02T09:30:00"), photo("c", "")]);
    expect(grouped.undated.map((p) => p.id)).toEqual(["a", "c"]);
    expect(grouped.days).toHaveLength(1);
  });

  it("offers nothing for one day, and nothing past 31 days (one memory, as the form does)", () => {
    expect(offersOnePerDay(groupByCaptureDay([photo("a", "2026-01-02"), photo("b", "2026-01-02T10:00:00")]))).toBe(false);
    const many = Array.from({ length: 32 }, (_, i) => photo(String(i), `2025-03-${String(i + 1).padStart(2, "0")}`));
    many[31] = photo("31", "2025-04-01");
    expect(offersOnePerDay(groupByCaptureDay(many))).toBe(false);
    expect(offersOnePerDay(groupByCaptureDay(many.slice(0, 31)))).toBe(true);
  });
});

describe("the batch's items (ADR 0063)", () => {
  it("makes one item per day, oldest first, titled with its date; undated photos join the first day", () => {
    const grouped = groupByCaptureDay([
      photo("a", "2026-01-04T18:00:00"),
      photo("b", null),
      photo("c", "2026-01-02T09:30:00"),
      photo("d", "2026-01-04T19:00:00"),
    ]);
    expect(captureDayItems(grouped, (date) => `day ${date}`)).toEqual([
      { title: "day 2026-01-02", memory_date: "2026-01-02", photo_ids: ["c", "b"] },
      { title: "day 2026-01-04", memory_date: "2026-01-04", photo_ids: ["a", "d"] },
    ]);
  });
});
