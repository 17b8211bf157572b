import { parseTagText, type Memory, type MemoryInput } from "@memory-box/contract";

/** What the memory form holds: the fields as typed. */
export interface MemoryFormValues {
  title: string;
  content: string;
  memoryDate: string;
  tagText: string;
}

export function formValuesOf(memory: Memory | undefined): MemoryFormValues {
  return {
    title: memory?.title ?? "",
    content: memory?.content ?? "",
    memoryDate: memory?.memory_date ?? "",
    tagText: memory?.tags?.join(", ") ?? "",
  };
}

/**
 * The form's values as the API body, by the server's own rules: title trimmed; description
 * trimmed, empty → null; empty date → null; tags split on commas, trimmed, deduplicated, none → null.
 */
export function toMemoryInput(values: MemoryFormValues, photoIds: string[]): MemoryInput {
  const content = values.content.trim();
  const memoryDate = values.memoryDate.trim();
  return {
    title: values.title.trim(),
    content: content === "" ? null : content,
    memory_date: memoryDate === "" ? null : memoryDate,
    tags: parseTagText(values.tagText),
    photo_ids: photoIds,
  };
}
