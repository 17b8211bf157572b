import type { WebMessageId } from "@memory-box/messages/web";
import { parseTagText, type Memory } from "@memory-box/contract";

import { formValuesOf, type MemoryFormValues } from "@/features/memories/utils/memory-input";
import { activeIntl } from "@/lib/intl";

/** A form field someone else changed while this member was editing. */
export interface ConcurrentChange {
  field: keyof MemoryFormValues;
  label: string;
  /** The value now saved, as the form would show it. */
  theirs: string;
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
} as const satisfies Record<keyof MemoryFormValues, WebMessageId>;

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
  for (const field of Object.keys(fieldLabels) as (keyof MemoryFormValues)[]) {
    if (sameValue(field, original[field], theirs[field])) continue;
    const taken = sameValue(field, original[field], mine[field]);
    if (!taken && sameValue(field, mine[field], theirs[field])) continue;
    if (taken) values[field] = theirs[field];
    changes.push({
      field,
      label: activeIntl().formatMessage({ id: fieldLabels[field] }),
      theirs: theirs[field],
      yours: mine[field],
      taken,
    });
  }
  const photoIds = (memory: Memory) => memory.photos.map((photo) => photo.id).join(",");
  return { values, changes, photosChanged: photoIds(base) !== photoIds(saved) };
}

/** Equal as the server would store them: trimmed; tags split, deduplicated ignoring case. */
function sameValue(field: keyof MemoryFormValues, a: string, b: string): boolean {
  if (field === "tagText") return (parseTagText(a) ?? []).join("\n") === (parseTagText(b) ?? []).join("\n");
  return a.trim() === b.trim();
}
