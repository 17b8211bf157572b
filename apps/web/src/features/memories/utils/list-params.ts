import { MemoryLimits } from "@memory-box/contract";

/**
 * Home's search and tag filters in its address (issue #34): `/?q=beach&tag=travel&tag=family`,
 * so Back from a memory, a reload or a bookmark shows the same list.
 */
export const searchParam = "q";
export const tagParam = "tag";

/** The search text from the address ("" for none), cut to what the API takes. */
export function searchOf(params: URLSearchParams): string {
  return (params.get(searchParam) ?? "").trim().slice(0, 200);
}

/**
 * The chosen tags from the address, in order: empty, over-long and repeated ones (ignoring case)
 * left out, at most `MemoryLimits.maxTags`, so a mistyped link shows a list rather than an error.
 */
export function tagsOf(params: URLSearchParams): string[] {
  const tags: string[] = [];
  const seen = new Set<string>();
  for (const raw of params.getAll(tagParam)) {
    const tag = raw.trim();
    const key = tag.toLowerCase();
    if (tag === "" || tag.length > MemoryLimits.tagMaxLength || seen.has(key)) continue;
    seen.add(key);
    tags.push(tag);
  }
  return tags.slice(0, MemoryLimits.maxTags);
}

/** `params` with the search text and tags set (each left out when empty). */
export function withListFilter(params: URLSearchParams, { q, tags }: { q?: string; tags?: readonly string[] }): URLSearchParams {
  const next = new URLSearchParams(params);
  if (q !== undefined) {
    if (q) next.set(searchParam, q);
    else next.delete(searchParam);
  }
  if (tags !== undefined) {
    next.delete(tagParam);
    for (const tag of tags) next.append(tagParam, tag);
  }
  return next;
}

/**
 * `selected` with `tag` added, or taken out when it is there (ignoring case): several tags can be
 * chosen at once (issue #34), and the list shows the memories carrying all of them.
 */
export function toggledTag(selected: readonly string[], tag: string): string[] {
  const key = tag.toLowerCase();
  return selected.some((chosen) => chosen.toLowerCase() === key)
    ? selected.filter((chosen) => chosen.toLowerCase() !== key)
    : [...selected, tag];
}

/** Whether `tag` is among the chosen ones (ignoring case, as the API does). */
export function isChosenTag(selected: readonly string[], tag: string): boolean {
  const key = tag.toLowerCase();
  return selected.some((chosen) => chosen.toLowerCase() === key);
}
