import type { WebMessageId } from "@memory-box/messages/web";
import { isMemoryYear, latestMemoryYear, MemoryLimits, parseTagText } from "@memory-box/contract";

import type { MemoryFormValues } from "@/features/memories/utils/memory-input";
import type { FieldError } from "@/lib/api-client";
import { activeIntl } from "@/lib/intl";

/** What is wrong with each field, in words, by field. */
export type FieldProblems = Partial<Record<keyof MemoryFormValues, string>>;

/** A count is shown next to its field from this share of the limit on, so it never surprises. */
const showCountFrom = 0.8;

/**
 * The server's limits checked in the form, before anything is sent: the same rules as the
 * contract's `MemoryInput` (which the server applies), said where the member can fix them.
 */
export function formProblems(values: MemoryFormValues): FieldProblems {
  const problems: FieldProblems = {};
  const title = values.title.trim();
  if (title.length > MemoryLimits.titleMaxLength)
    problems.title = activeIntl().formatMessage(
      { id: "rules.titleTooLong" },
      { limit: MemoryLimits.titleMaxLength, count: title.length },
    );
  const content = values.content.trim();
  if (content.length > MemoryLimits.contentMaxLength)
    problems.content = activeIntl().formatMessage(
      { id: "rules.contentTooLong" },
      {
        limit: MemoryLimits.contentMaxLength,
        count: content.length,
      },
    );
  // The browser's date field gives a full date or nothing; its year may still be any of 0001–9999.
  if (values.memoryDate !== "" && !isMemoryYear(values.memoryDate))
    problems.memoryDate = activeIntl().formatMessage(
      { id: "rules.dateOutOfRange" },
      // As text: a number would be written "1,000".
      { first: String(MemoryLimits.earliestYear), last: String(latestMemoryYear()) },
    );
  const tags = parseTagText(values.tagText) ?? [];
  const long = tags.filter((tag) => tag.length > MemoryLimits.tagMaxLength);
  if (tags.length > MemoryLimits.maxTags)
    problems.tagText = activeIntl().formatMessage(
      { id: "rules.tooManyTags" },
      { limit: MemoryLimits.maxTags, count: tags.length },
    );
  else if (long.length > 0)
    problems.tagText = activeIntl().formatMessage(
      { id: "rules.tagTooLong" },
      {
        limit: MemoryLimits.tagMaxLength,
        tag: abbreviate(long[0]!),
        count: long[0]!.length,
      },
    );
  // The place's name may be changed, not emptied: "Remove place" is the way to have none.
  if (values.place && values.place.name.trim() === "")
    problems.place = activeIntl().formatMessage({ id: "places.form.nameRequired" });
  return problems;
}

/** "180 / 200": shown beside a field once its value nears the limit. */
export function lengthCount(value: string, limit: number): string | undefined {
  const length = value.trim().length;
  return length >= limit * showCountFrom
    ? activeIntl().formatMessage({ id: "rules.lengthCount" }, { count: length, limit })
    : undefined;
}

/** "24 / 30 tags" once the tags near their limit. */
export function tagCount(tagText: string): string | undefined {
  const count = parseTagText(tagText)?.length ?? 0;
  return count >= MemoryLimits.maxTags * showCountFrom
    ? activeIntl().formatMessage({ id: "rules.tagCount" }, { count, limit: MemoryLimits.maxTags })
    : undefined;
}

const apiFields: Record<string, keyof MemoryFormValues> = {
  title: "title",
  content: "content",
  memory_date: "memoryDate",
  tags: "tagText",
  place: "place",
};

const fieldNames = {
  title: "memory.form.title",
  content: "memory.form.description",
  memoryDate: "memory.form.date",
  tagText: "memory.form.tags",
  place: "places.form.label",
} as const satisfies Record<keyof MemoryFormValues, WebMessageId>;

/**
 * A refused save's `details` (`body.tags`: "at most 30 tags") as the form's field problems
 * ("Tags: at most 30 tags"). Details about no field of the form are left out.
 */
export function problemsFromApi(fieldErrors: readonly FieldError[]): FieldProblems {
  const problems: FieldProblems = {};
  for (const { path, message } of fieldErrors) {
    const segments = path.split(".");
    const field = apiFields[segments[0] === "body" ? (segments[1] ?? "") : (segments[0] ?? "")];
    if (field && problems[field] === undefined)
      problems[field] =
        `${activeIntl().formatMessage({ id: "rules.apiProblem" }, { field: activeIntl().formatMessage({ id: fieldNames[field] }), message })}.`.replace(
          /\.\.$/,
          ".",
        );
  }
  return problems;
}

function abbreviate(text: string): string {
  return text.length > 24 ? `${text.slice(0, 24)}…` : text;
}
