import { describe, expect, it } from "vitest";

import { mergeConcurrentEdit } from "@/features/memories/utils/memory-conflict";
import { formValuesOf, toMemoryInput, type MemoryFormValues } from "@/features/memories/utils/memory-input";
import { fakeMemory } from "@/testing/memory-fixtures";

const values = (place: MemoryFormValues["place"]): MemoryFormValues => ({
  title: "Trip",
  content: "",
  memoryDate: "",
  tagText: "",
  place,
});
const sintra = { name: " Sintra ", latitude: 38.8, longitude: -9.38, country_code: "PT" };

describe("a memory's place in the body sent", () => {
  it("goes with a new memory (the offline queue's too) as name and point; none is not sent", () => {
    expect(toMemoryInput(values(sintra), []).place).toEqual({ name: "Sintra", latitude: 38.8, longitude: -9.38 });
    expect(toMemoryInput(values(null), [])).not.toHaveProperty("place");
    // Queued before places existed: no `place` among its values.
    const { place: _none, ...older } = values(null);
    expect(toMemoryInput(older as MemoryFormValues, [])).not.toHaveProperty("place");
  });

  it("goes with an edit only when it changed: null removes it", () => {
    const memory = fakeMemory({ place: { name: "Sintra", latitude: 38.8, longitude: -9.38, country_code: "PT" } });
    expect(toMemoryInput(values(sintra), [], memory)).not.toHaveProperty("place");
    expect(toMemoryInput(values(null), [], memory).place).toBeNull();
    expect(toMemoryInput(values({ ...sintra, name: "Pena" }), [], memory).place).toEqual({
      name: "Pena",
      latitude: 38.8,
      longitude: -9.38,
    });
  });
});

describe("a place changed by someone else meanwhile", () => {
  const base = fakeMemory({ place: null });
  const theirs = fakeMemory({ ...base, place: { name: "Sintra", latitude: 38.8, longitude: -9.38, country_code: "PT" } });

  it("is taken into the form when this member left the place alone, and shown when both chose one", () => {
    const untouched = mergeConcurrentEdit(base, theirs, formValuesOf(base));
    expect(untouched.values.place).toEqual(theirs.place);
    expect(untouched.changes).toEqual([
      expect.objectContaining({ field: "place", label: "Place", theirs: "Sintra", taken: true }),
    ]);

    const mine = { ...formValuesOf(base), place: { name: "Lisbon", latitude: 38.72, longitude: -9.13 } };
    const both = mergeConcurrentEdit(base, theirs, mine);
    expect(both.values.place).toEqual(mine.place);
    expect(both.changes).toEqual([
      expect.objectContaining({ field: "place", theirs: "Sintra", yours: "Lisbon", theirsValue: theirs.place, taken: false }),
    ]);
  });
});
