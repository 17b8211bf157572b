import type { TagList } from "@memory-box/contract";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";

/** The filter offers the most used tags only; the rest are counted in a "+N more" badge. */
export const tagFilterLimit = 5;

/**
 * "All Tags" plus the five most used tags, as toggle buttons (`aria-pressed`). Choosing the
 * active tag again clears the filter. `selected` is "" for all tags.
 */
export function TagFilter({
  tags,
  selected,
  onSelect,
}: {
  tags: TagList["tags"];
  selected: string;
  onSelect: (tag: string) => void;
}) {
  const shown = tags.slice(0, tagFilterLimit);
  const more = tags.length - shown.length;

  return (
    <div role="group" aria-label="Filter by tag" className="flex flex-wrap items-center gap-2">
      <Button
        size="sm"
        variant={selected === "" ? "default" : "outline"}
        aria-pressed={selected === ""}
        onClick={() => onSelect("")}
      >
        All Tags
      </Button>
      {shown.map(({ tag }) => {
        const active = tag === selected;
        return (
          <Button
            key={tag}
            size="sm"
            variant={active ? "default" : "outline"}
            aria-pressed={active}
            onClick={() => onSelect(active ? "" : tag)}
          >
            {tag}
          </Button>
        );
      })}
      {more > 0 && <Badge variant="secondary">+{more} more</Badge>}
    </div>
  );
}
