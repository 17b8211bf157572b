/** The memory form's tag chips (issue #34): pure rules, shared by the field and its tests. */

/** How many tags in use are offered at once. */
const suggestionLimit = 6;

/** `chips` with `added` after them: trimmed, empty ones and those already there (ignoring case) left out. */
export function withTags(chips: readonly string[], added: readonly string[]): string[] {
  const next = [...chips];
  for (const raw of added) {
    const tag = raw.trim();
    if (tag !== "" && !next.some((chip) => chip.toLowerCase() === tag.toLowerCase())) next.push(tag);
  }
  return next;
}

/** The form's text for chips and what is still being typed: "a, b, c", as the comma field sent it. */
export function tagTextOf(chips: readonly string[], draft: string): string {
  return [...chips, draft.trim()].filter((tag) => tag !== "").join(", ");
}

/** Tags in use that contain `draft` (ignoring case) and are not chosen yet, those starting with it first. */
export function tagSuggestions(inUse: readonly string[], chips: readonly string[], draft: string): string[] {
  const needle = draft.trim().toLowerCase();
  if (needle === "") return [];
  const chosen = new Set(chips.map((chip) => chip.toLowerCase()));
  const matching = inUse.filter((tag) => !chosen.has(tag.toLowerCase()) && tag.toLowerCase().includes(needle));
  const starting = matching.filter((tag) => tag.toLowerCase().startsWith(needle));
  return [...starting, ...matching.filter((tag) => !tag.toLowerCase().startsWith(needle))].slice(0, suggestionLimit);
}
