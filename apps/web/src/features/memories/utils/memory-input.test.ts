import { describe, expect, it } from "vitest";

import { toMemoryInput, type MemoryFormValues } from "@/features/memories/utils/memory-input";
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
