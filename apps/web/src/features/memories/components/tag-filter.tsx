import { lazy, Suspense, useState, type ComponentProps } from "react";
import type { TagList } from "@memory-box/contract";

import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { tagFilterLimit } from "@/features/memories/utils/card-layout";
import { isChosenTag, toggledTag } from "@/features/memories/utils/list-params";
import { useIntl } from "@/lib/intl";

/**
 * "All Tags" plus the five most used tags (and any chosen one past them), as toggle buttons
 * (`aria-pressed`). Several tags can be chosen at once; choosing an active tag again takes it
 * out, and "All Tags" clears them. The "+N more" badge opens every tag, narrowed by what is
 * typed, so a tag past the fifth is one choice away too.
 */
export function TagFilter({
  tags,
  selected,
  onSelect,
}: {
  tags: TagList["tags"];
  /** The chosen tags; none for all. */
  selected: readonly string[];
  onSelect: (tags: string[]) => void;
}) {
  const top = tags.slice(0, tagFilterLimit);
  // A chosen tag past the five (from the "+N more" list or a link) shows as pressed too.
  const shown = [...top, ...tags.slice(tagFilterLimit).filter(({ tag }) => isChosenTag(selected, tag))];
  const more = tags.length - shown.length;
  const intl = useIntl();

  return (
    <div role="group" aria-label={intl.formatMessage({ id: "home.tags.group" })} className="flex flex-wrap items-center gap-2">
      <Button
        size="sm"
        variant={selected.length === 0 ? "default" : "outline"}
        aria-pressed={selected.length === 0}
        onClick={() => onSelect([])}
      >
        {intl.formatMessage({ id: "home.tags.all" })}
      </Button>
      {shown.map(({ tag }) => {
        const active = isChosenTag(selected, tag);
        return (
          <Button
            key={tag}
            size="sm"
            variant={active ? "default" : "outline"}
            aria-pressed={active}
            onClick={() => onSelect(toggledTag(selected, tag))}
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

const loadPopover = () => import("@/features/memories/components/all-tags-popover");
const AllTagsPopover = lazy(() => loadPopover().then(({ AllTagsPopover }) => ({ default: AllTagsPopover })));

/**
 * The "+N more" badge; its popover's code (Radix's popover and its positioning, ~11 KB) is loaded
 * when it is first pressed (fetched as a pointer nears it or it takes focus), not with home.
 */
export function AllTags(props: {
  tags: TagList["tags"];
  more: number;
  selected: readonly string[];
  onSelect: (tags: string[]) => void;
}) {
  const [wanted, setWanted] = useState(false);
  const closed = (
    <MoreTagsButton
      more={props.more}
      data-slot="popover-trigger"
      aria-haspopup="dialog"
      aria-expanded={false}
      data-state="closed"
      onPointerEnter={() => void loadPopover().catch(() => undefined)}
      onFocus={() => void loadPopover().catch(() => undefined)}
      onClick={() => setWanted(true)}
    />
  );
  if (!wanted) return closed;
  return (
    <Suspense fallback={closed}>
      <AllTagsPopover {...props} />
    </Suspense>
  );
}
