import type { ReactNode, Ref } from "react";
import type { Memory, TagList } from "@memory-box/contract";

import { MemoryGrid } from "@/features/memories/components/memory-grid";
import { SearchBox } from "@/features/memories/components/search-box";
import { TagFilter } from "@/features/memories/components/tag-filter";
import { useIntl } from "@/lib/intl";

export interface MemoryListViewProps {
  searchText: string;
  onSearchChange?: (text: string) => void;
  searchInputRef?: Ref<HTMLInputElement>;
  tags: TagList["tags"];
  /** The chosen tags (none for all). */
  selectedTags: readonly string[];
  onSelectTags?: (tags: string[]) => void;
  /** Under the tag filter: the place filters (the app's, drawing nothing without places; the first screen draws none). */
  placeFilters?: ReactNode;
  countRowRef?: Ref<HTMLDivElement>;
  total: number;
  /** The count's line when it is not the whole collection's ("3 of 40 memories"). */
  count?: string;
  timelineSelect?: ReactNode;
  timelineColumn?: ReactNode;
  items: Memory[];
  /** The cards shown are the previous filter's, while the new one loads. */
  busy: boolean;
  noMatches?: ReactNode;
  loadMore?: ReactNode;
}

/**
 * Home's collection as it shows once loaded: search, tag filter, count, the card grid, and the
 * timeline beside it. Without state, so the first screen's script draws it too (ADR 0039);
 * `MemoryList` brings the data, the loading and empty states and the behaviour.
 */
export function MemoryListView({
  searchText,
  onSearchChange = () => undefined,
  searchInputRef,
  tags,
  selectedTags,
  onSelectTags = () => undefined,
  placeFilters,
  countRowRef,
  total,
  count,
  timelineSelect,
  timelineColumn,
  items,
  busy,
  noMatches,
  loadMore,
}: MemoryListViewProps) {
  const intl = useIntl();
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-4">
        <SearchBox value={searchText} onChange={onSearchChange} inputRef={searchInputRef} />
        <TagFilter tags={tags} selected={selectedTags} onSelect={onSelectTags} />
        {placeFilters}
      </div>

      {/* As tall as the narrow screen's "Jump to" select, whether or not it is there, so it never pushes the cards (ADR 0026). */}
      <div ref={countRowRef} className="flex min-h-9 flex-wrap items-center justify-between gap-2">
        <p className="text-sm font-medium" aria-live="polite">
          {count ?? intl.formatMessage({ id: "home.count.all" }, { total })}
        </p>
        {timelineSelect}
      </div>

      {/* The timeline's column is kept on wide screens even while it is empty: the cards' width never changes. */}
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_8rem]">
        <div className="flex flex-col gap-6">
          {items.length === 0 ? (
            noMatches
          ) : (
            <div aria-busy={busy} className={busy ? "opacity-60 transition-opacity" : undefined}>
              <MemoryGrid memories={items} />
            </div>
          )}
          {loadMore}
        </div>
        {timelineColumn}
      </div>
    </div>
  );
}
