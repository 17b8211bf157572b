import { useState, type ComponentProps } from "react";
import type { TagList } from "@memory-box/contract";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Popover, PopoverContent, PopoverTrigger } from "@/components/ui/popover";
import { tagFilterLimit } from "@/features/memories/utils/card-layout";
import { useIntl } from "@/lib/intl";

/**
 * "All Tags" plus the five most used tags, as toggle buttons (`aria-pressed`). Choosing the
 * active tag again clears the filter. `selected` is "" for all tags. The "+N more" badge opens
 * every tag, narrowed by what is typed, so a tag past the fifth is one choice away too.
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
  const intl = useIntl();

  return (
    <div role="group" aria-label={intl.formatMessage({ id: "home.tags.group" })} className="flex flex-wrap items-center gap-2">
      <Button
        size="sm"
        variant={selected === "" ? "default" : "outline"}
        aria-pressed={selected === ""}
        onClick={() => onSelect("")}
      >
        {intl.formatMessage({ id: "home.tags.all" })}
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
      {more > 0 && <AllTags tags={tags} more={more} selected={selected} onSelect={onSelect} />}
    </div>
  );
}

/** The "+N more" badge that opens every tag: without state, so the first screen's script draws it too (ADR 0039). */
export function MoreTagsButton({ more, ...props }: { more: number } & ComponentProps<"button">) {
  const intl = useIntl();
  return (
    <Badge asChild variant="secondary">
      <button type="button" aria-label={intl.formatMessage({ id: "home.tags.moreLabel" }, { more })} {...props}>
        {intl.formatMessage({ id: "home.tags.more" }, { more })}
      </button>
    </Badge>
  );
}

export function AllTags({
  tags,
  more,
  selected,
  onSelect,
}: {
  tags: TagList["tags"];
  more: number;
  selected: string;
  onSelect: (tag: string) => void;
}) {
  const [open, setOpen] = useState(false);
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
            const active = tag === selected;
            return (
              <li key={tag}>
                <Button
                  size="sm"
                  variant={active ? "default" : "outline"}
                  aria-pressed={active}
                  onClick={() => {
                    onSelect(active ? "" : tag);
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
