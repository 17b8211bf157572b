import { useCallback, useEffect, useLayoutEffect, useRef, useState } from "react";
import { BookHeart, CloudOff, Plus, SearchX } from "lucide-react";
import { useSearchParams } from "react-router";

import { EmptyState } from "@/components/empty-state";
import { LoadingState } from "@/components/loading-state";
import { Button } from "@/components/ui/button";
import { useMemories, type MemoryFilter } from "@/features/memories/api/get-memories";
import type { PlaceFilter } from "@/features/memories/api/list-paths";
import { useTags } from "@/features/memories/api/get-tags";
import { useTimeline } from "@/features/memories/api/get-timeline";
import { LoadMore } from "@/features/memories/components/load-more";
import { MemoryListView } from "@/features/memories/components/memory-list-view";
import { TimelineColumn, TimelineSelect } from "@/features/memories/components/memory-timeline";
import { useDebouncedValue } from "@/hooks/use-debounced-value";
import { showsTimeline } from "@/features/memories/utils/timeline";
import { usePlaceParts } from "@/features/memories/components/place-parts";
import { placeFilterKeys, placeFilterOf } from "@/features/memories/utils/place-filter";
import { searchOf, tagsOf, withListFilter } from "@/features/memories/utils/list-params";
import { useListScroll } from "@/features/memories/hooks/use-list-scroll";
import { nearNameParam } from "@/config/paths";
import { handOverFirstScreen } from "@/lib/first-screen";
import { useIntl } from "@/lib/intl";

/** How long typing must pause before the search goes to the API. */
export const searchDebounceMs = 250;

/**
 * The home screen's collection: search, tag filter, count, the card grid with infinite loading,
 * and the loading, empty and no-match states. Search and tags are applied by the API, so they
 * cover the whole collection, not just the pages loaded so far. Beside the cards (above them on
 * narrow screens), the timeline index starts the list at a month; a new search or tag clears that.
 * The search, the chosen tags (issue #34) and the place filters (a country, a place, a map's area,
 * near a place) live in the address, so a link or bookmark opens the list filtered and Back from
 * a memory returns to the same list, at the same scroll position.
 */
export function MemoryList({
  onAddMemory,
  ready = true,
}: {
  onAddMemory: () => void;
  /** False while something shown above the list is still on its way: the loading state stays until it is there. */
  ready?: boolean;
}) {
  const intl = useIntl();
  const [searchParams, setSearchParams] = useSearchParams();
  // The address holds the search the list shows; the field's text reaches it once typing pauses.
  const search = searchOf(searchParams);
  const tags = tagsOf(searchParams);
  const [searchText, setSearchText] = useState(search);
  const [typed, setTyped] = useDebouncedValue(searchText.trim(), searchDebounceMs);
  // Back, Forward, a link or Clear Filters changed the address's search: the field follows it.
  const [shownSearch, setShownSearch] = useState(search);
  if (shownSearch !== search) {
    setShownSearch(search);
    if (search !== typed) {
      setSearchText(search);
      setTyped(search);
    }
  }
  useEffect(() => {
    // Replaces the entry: Back leaves the list rather than stepping through each pause in typing.
    if (typed !== search) setSearchParams((current) => withListFilter(current, { q: typed }), { replace: true });
  }, [typed, search, setSearchParams]);
  // The timeline month (or `undated`) the list starts at; "" for the newest.
  const [from, setFrom] = useState("");
  const searchInput = useRef<HTMLInputElement>(null);
  const countRow = useRef<HTMLDivElement>(null);
  const placeFilter = placeFilterOf(searchParams);
  const filter: MemoryFilter = { q: search, tags, ...placeFilter };
  const filterKey = JSON.stringify(filter);
  const filtered = search !== "" || tags.length > 0 || Object.keys(placeFilter).length > 0;
  // A new search, tag or place filter starts the list at the newest.
  const [shownFilter, setShownFilter] = useState(filterKey);
  if (shownFilter !== filterKey) {
    setShownFilter(filterKey);
    setFrom("");
  }

  const memories = useMemories(filter, from);
  const tagList = useTags();
  const places = usePlaceParts();
  const timeline = useTimeline(filter);
  const { fetchNextPage } = memories;

  // A failed fetch is only logged (spec); the list keeps what it had, and the button below retries.
  useEffect(() => {
    if (memories.error) console.error("Error fetching memories:", memories.error);
  }, [memories.error]);
  useEffect(() => {
    if (tagList.error) console.error("Error fetching tags:", tagList.error);
  }, [tagList.error]);

  // The painted first screen (ADR 0026) gives way once this shows the same: the list and the tag row.
  const settled = !memories.isPending && !tagList.isPending && ready;
  useLayoutEffect(() => {
    if (settled) void handOverFirstScreen();
  }, [settled]);
  // Back from a memory: the scroll comes back once the pages are drawn again from the cache.
  useListScroll(!memories.isPending && ready);

  const loadMore = useCallback(() => void fetchNextPage({ cancelRefetch: false }), [fetchNextPage]);

  const changeSearch = (text: string) => setSearchText(text);
  // A deliberate choice, like a place chip's: its own history entry.
  const selectTags = (next: string[]) => setSearchParams((current) => withListFilter(current, { tags: next }));
  const changePlaceFilter = (key: keyof PlaceFilter, value: string) =>
    setSearchParams((current) => {
      const next = new URLSearchParams(current);
      if (value) next.set(key, value);
      else next.delete(key);
      if (key === "near") next.delete(nearNameParam);
      return next;
    });
  const clearFilters = () => {
    // The field empties at once; what it sends follows the address (above), so nothing typed
    // before can write its search back over the cleared address.
    setSearchText("");
    setFrom("");
    setSearchParams((current) => {
      const next = withListFilter(current, { q: "", tags: [] });
      for (const key of [...placeFilterKeys, nearNameParam]) next.delete(key);
      return next;
    });
    searchInput.current?.focus();
  };
  const jump = (month: string) => {
    setFrom(month);
    // From far down the list, bring its new start into view (the column stays where it is).
    const row = countRow.current;
    if (row && row.getBoundingClientRect().top < 0) row.scrollIntoView({ block: "start" });
  };

  if (memories.isPending || !ready) {
    return <LoadingState shape="cards">{intl.formatMessage({ id: "home.loading" })}</LoadingState>;
  }

  if (memories.data === undefined) {
    return (
      <EmptyState icon={CloudOff} title={intl.formatMessage({ id: "home.error.title" })}>
        <Button variant="outline" onClick={() => void memories.refetch()}>
          {intl.formatMessage({ id: "home.error.retry" })}
        </Button>
      </EmptyState>
    );
  }

  const pages = memories.data.pages;
  const latest = pages[pages.length - 1]!;
  const items = pages.flatMap((page) => page.items);
  const index = showsTimeline(timeline.data) ? timeline.data : undefined;

  if (latest.total === 0 && !filtered) {
    return (
      <EmptyState
        icon={BookHeart}
        title={intl.formatMessage({ id: "home.empty.title" })}
        description={intl.formatMessage({ id: "home.empty.description" })}
      >
        <Button onClick={onAddMemory}>
          <Plus aria-hidden="true" />
          {intl.formatMessage({ id: "home.empty.add" })}
        </Button>
      </EmptyState>
    );
  }

  return (
    <MemoryListView
      searchText={searchText}
      onSearchChange={changeSearch}
      searchInputRef={searchInput}
      tags={tagList.data?.tags ?? []}
      selectedTags={tags}
      onSelectTags={selectTags}
      placeFilters={
        places && (
          <places.PlaceFilters
            filter={placeFilter}
            nearName={searchParams.get(nearNameParam) ?? ""}
            onChange={changePlaceFilter}
          />
        )
      }
      countRowRef={countRow}
      count={
        filtered ? intl.formatMessage({ id: "home.count.matched" }, { matched: latest.matched, total: latest.total }) : undefined
      }
      total={latest.total}
      timelineSelect={index && <TimelineSelect timeline={index} current={from} onJump={jump} className="lg:hidden" />}
      timelineColumn={
        index && (
          <TimelineColumn
            timeline={index}
            current={from}
            onJump={jump}
            tags={tags}
            className="sticky top-4 hidden max-h-[calc(100svh-2rem)] lg:block"
          />
        )
      }
      items={items}
      busy={memories.isPlaceholderData}
      noMatches={
        <EmptyState
          icon={SearchX}
          title={intl.formatMessage({ id: "home.noMatches.title" })}
          description={intl.formatMessage({ id: "home.noMatches.description" })}
        >
          <Button variant="outline" onClick={clearFilters}>
            {intl.formatMessage({ id: "home.noMatches.clear" })}
          </Button>
        </EmptyState>
      }
      loadMore={
        <LoadMore
          hasMore={memories.hasNextPage && !memories.isPlaceholderData}
          loading={memories.isFetchingNextPage}
          pauseAuto={memories.isFetching || memories.isFetchNextPageError}
          onLoadMore={loadMore}
        />
      }
    />
  );
}
