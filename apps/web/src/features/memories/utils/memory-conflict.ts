import type { WebMessageId } from "@memory-box/messages/web";
import { parseTagText, type Memory } from "@memory-box/contract";

import { formValuesOf, samePlace, type MemoryFormValues, type MemoryTextField } from "@/features/memories/utils/memory-input";
import { activeIntl } from "@/lib/intl";

/** A form field someone else changed while this member was editing. */
export interface ConcurrentChange {
  field: keyof MemoryFormValues;
  label: string;
  /** The value now saved, as the form would show it. */
  theirs: string;
  /** The value now saved, as the form holds it ("Use theirs" puts it in). */
  theirsValue: MemoryFormValues[keyof MemoryFormValues];
  /** What this member has in the form. */
  yours: string;
  /**
   * True when this member had not touched the field: their change was taken into the form.
   * False when both changed it differently: the member's value stays until they choose.
   */
  taken: boolean;
}

export interface ConcurrentEdit {
  /** The form's values with the other member's changes taken where this member left a field alone. */
  values: MemoryFormValues;
  changes: ConcurrentChange[];
  /** The saved copy's photos differ from those the edit started with. */
  photosChanged: boolean;
}

const fieldLabels = {
  title: "memory.form.title",
  content: "memory.form.description",
  memoryDate: "memory.form.date",
  tagText: "memory.form.tags",
} as const satisfies Record<MemoryTextField, WebMessageId>;

/**
 * Three-way merge of a memory edited by two members at once: `base` is the copy this member's
 * form started from, `saved` the copy someone else saved since, `mine` the form's values. A field
 * only they changed takes their value; a field both changed keeps this member's value and is
 * reported, so nothing of theirs is overwritten unseen.
 */
export function mergeConcurrentEdit(base: Memory, saved: Memory, mine: MemoryFormValues): ConcurrentEdit {
  const original = formValuesOf(base);
  const theirs = formValuesOf(saved);
  const values = { ...mine };
  const changes: ConcurrentChange[] = [];
  for (const field of Object.keys(fieldLabels) as MemoryTextField[]) {
    if (sameValue(field, original[field], theirs[field])) continue;
    const taken = sameValue(field, original[field], mine[field]);
    if (!taken && sameValue(field, mine[field], theirs[field])) continue;
    if (taken) values[field] = theirs[field];
    changes.push({
      field,
      label: activeIntl().formatMessage({ id: fieldLabels[field] }),
      theirs: theirs[field],
      theirsValue: theirs[field],
      yours: mine[field],
      taken,
    });
  }
  // The place, by the same rule: theirs is taken when this member left it alone, else both are shown.
  if (!samePlace(original.place, theirs.place) && !samePlace(mine.place, theirs.place)) {
    const taken = samePlace(original.place, mine.place);
    if (taken) values.place = theirs.place;
    changes.push({
      field: "place",
      label: activeIntl().formatMessage({ id: "places.form.label" }),
      theirs: shownValue(theirs, "place"),
      theirsValue: theirs.place,
      yours: shownValue(mine, "place"),
      taken,
    });
  }
  const photoIds = (memory: Memory) => memory.photos.map((photo) => photo.id).join(",");
  return { values, changes, photosChanged: photoIds(base) !== photoIds(saved) };
}

/** A field's value as the conflict's note shows it: the text, or the place's name ("" for none). */
export function shownValue(values: MemoryFormValues, field: keyof MemoryFormValues): string {
  return field === "place" ? (values.place?.name ?? "") : values[field];
}

/** Equal as the server would store them: trimmed; tags split, deduplicated ignoring case. */
function sameValue(field: MemoryTextField, a: string, b: string): boolean {
  if (field === "tagText") return (parseTagText(a) ?? []).join("\n") === (parseTagText(b) ?? []).join("\n");
  return a.trim() === b.trim();
}
