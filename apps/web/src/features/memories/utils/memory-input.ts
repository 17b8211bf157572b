import { parseTagText, type Memory, type MemoryInput, type PlaceInput } from "@memory-box/contract";

/**
 * The memory's place as the form holds it: what is sent (name and coordinates) and, when known,
 * its country, to show beside it (the server finds the country itself).
 */
export interface FormPlace {
  name: string;
  latitude: number;
  longitude: number;
  country_code?: string | null;
}

/** What the memory form holds: the fields as typed, and the place chosen (null for none). */
export interface MemoryFormValues {
  title: string;
  content: string;
  memoryDate: string;
  tagText: string;
  place: FormPlace | null;
}

/** The form's fields that are text. */
export type MemoryTextField = Exclude<keyof MemoryFormValues, "place">;

export function formValuesOf(memory: Memory | undefined): MemoryFormValues {
  return {
    title: memory?.title ?? "",
    content: memory?.content ?? "",
    memoryDate: memory?.memory_date ?? "",
    tagText: memory?.tags?.join(", ") ?? "",
    place: memory?.place ? { ...memory.place } : null,
  };
}

/** Two places the same as the server would store them (the name trimmed; the country is the server's). */
export function samePlace(a: FormPlace | null, b: FormPlace | null): boolean {
  if (a === null || b === null) return a === b;
  return a.name.trim() === b.name.trim() && a.latitude === b.latitude && a.longitude === b.longitude;
}

/**
 * The form's values as the API body, by the server's own rules: title trimmed; description
 * trimmed, empty → null; empty date → null; tags split on commas, trimmed, deduplicated, none → null.
 * The place is sent only when it differs from `base`'s (the memory edited; none for a new one): an
 * edit that leaves it alone never overwrites a place someone else set meanwhile, and null removes it.
 */
export function toMemoryInput(values: MemoryFormValues, photoIds: string[], base?: Memory): MemoryInput {
  const content = values.content.trim();
  const memoryDate = values.memoryDate.trim();
  // A memory queued offline before places existed has no `place` among its values: none is sent.
  const place = values.place as FormPlace | null | undefined;
  const basePlace = base?.place ?? null;
  return {
    title: values.title.trim(),
    content: content === "" ? null : content,
    memory_date: memoryDate === "" ? null : memoryDate,
    tags: parseTagText(values.tagText),
    photo_ids: photoIds,
    ...(place === undefined || samePlace(place, basePlace) ? {} : { place: place && placeInputOf(place) }),
  };
}

function placeInputOf({ name, latitude, longitude }: FormPlace): PlaceInput {
  return { name: name.trim(), latitude, longitude };
}
