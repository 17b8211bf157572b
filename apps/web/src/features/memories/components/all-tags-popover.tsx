import { useState } from "react";
import type { TagList } from "@memory-box/contract";

import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { MoreTagsButton } from "@/features/memories/components/tag-filter";
import { isChosenTag, toggledTag } from "@/features/memories/utils/list-params";
import { useIntl } from "@/lib/intl";

/** Every tag, narrowed by what is typed, in a popover from the "+N more" badge; loaded when first opened (tag-filter.tsx). */
export function AllTagsPopover({
  tags,
  more,
  selected,
  onSelect,
}: {
  tags: TagList["tags"];
  more: number;
  selected: readonly string[];
  onSelect: (tags: string[]) => void;
}) {
  // Loaded by a press on the badge: it opens at once.
  const [open, setOpen] = useState(true);
  const [query, setQuery] = useState("");
  const intl = useIntl();
  const needle = query.trim().toLocaleLowerCase();
  const matching = needle === "" ? tags : tags.filter(({ tag }) => tag.toLocaleLowerCase().includes(needle));

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setQuery("");
      }}
    >
      <PopoverTrigger asChild>
        <MoreTagsButton more={more} />
      </PopoverTrigger>
      <PopoverContent className="space-y-3">
        <Input
          type="search"
          aria-label={intl.formatMessage({ id: "home.tags.filter" })}
          placeholder={intl.formatMessage({ id: "home.tags.filterPlaceholder" })}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        <ul
          aria-label={intl.formatMessage({ id: "home.tags.allList" })}
          className="flex max-h-64 flex-wrap gap-1.5 overflow-y-auto"
        >
          {matching.map(({ tag }) => {
            const active = isChosenTag(selected, tag);
            return (
              <li key={tag}>
                <Button
                  size="sm"
                  variant={active ? "default" : "outline"}
                  aria-pressed={active}
                  onClick={() => {
                    onSelect(toggledTag(selected, tag));
                    setOpen(false);
                    setQuery("");
                  }}
                >
                  {tag}
                </Button>
              </li>
            );
          })}
        </ul>
        {matching.length === 0 && (
          <p className="text-sm text-muted-foreground">{intl.formatMessage({ id: "home.tags.noMatch" })}</p>
        )}
      </PopoverContent>
    </Popover>
  );
}
