import type { BoxSettings, MemoryPage, OnThisDay, TagList } from "@memory-box/contract";
import { Calendar, CircleAlert, MapPin, MessageCircle, Pencil, Play, Plus, Search, Settings, Trash, User } from "lucide-react";
import { Label, Slot } from "radix-ui";
import { Link } from "react-router";
import { iconMarkup } from "virtual:first-screen-icons";

import { renderToDom, slotted, type Substitute } from "@/app/first-screen/dom-render";
import { BoxBannerView } from "@/features/box/components/box-banner-view";
import { HomeFrame } from "@/features/memories/components/home-frame";
import { LoadMore, LoadMoreView } from "@/features/memories/components/load-more";
import { MemoryCard } from "@/features/memories/components/memory-card";
import { MemoryCardView, type MemoryCardViewProps } from "@/features/memories/components/memory-card-view";
import { MediaMark, MediaMarkView, type MediaMarkProps } from "@/features/memories/components/media-mark";
import { MemoryListView } from "@/features/memories/components/memory-list-view";
import { OnThisDaySection } from "@/features/memories/components/on-this-day";
import { PhotoImage } from "@/features/memories/components/photo-image";
import { PhotoImageView, type PhotoImageProps } from "@/features/memories/components/photo-image-view";
import { SearchBox, SearchBoxView, type SearchBoxProps } from "@/features/memories/components/search-box";
import { AllTags, MoreTagsButton } from "@/features/memories/components/tag-filter";
import { firstScreenCards } from "@/features/memories/utils/card-layout";
import type { StoredUser } from "@/lib/stored-session";
import { drawWithoutReact } from "@/lib/intl";

// The formatter comes with the painting, not in the first script, which every page loads.
export { createIntl, setActiveIntl } from "@/lib/intl";
import { userDisplayName } from "@/lib/user-name";

/**
 * Home's first screen, drawn before React runs (ADR 0039) by home's own components: the same
 * JSX React renders (`HomeFrame`, `MemoryListView`, `MemoryCardView`, `OnThisDaySection`…), turned
 * into DOM nodes by `renderToDom`. There is no second copy of home's markup: a component with
 * state, or a library's, is drawn by its substitute below, which renders what it shows on its
 * first frame (its stateless view, or the markup the library gives it); a test renders the app's
 * screen and this one from the same data and compares them element by element.
 */

/** One of lucide's icons, as lucide-react renders it (markup made at build time, vite.config.ts); trusted, never data. */
function icon(name: keyof typeof iconMarkup): Substitute {
  return ({ className }) => {
    const template = document.createElement("template");
    template.innerHTML = iconMarkup[name];
    const svg = template.content.firstElementChild!;
    if (typeof className === "string" && className) svg.setAttribute("class", `${svg.getAttribute("class")} ${className}`);
    return svg;
  };
}

/** The attributes Radix's popover trigger gives its child while closed. */
const closedPopoverTrigger = {
  "data-slot": "popover-trigger",
  "aria-haspopup": "dialog" as const,
  "aria-expanded": false,
  "data-state": "closed",
};

const substitutes = new Map<unknown, Substitute>([
  [PhotoImage, (props) => <PhotoImageView {...(props as unknown as PhotoImageProps)} loaded={false} />],
  [MediaMark, (props) => <MediaMarkView {...(props as unknown as MediaMarkProps)} />],
  [MemoryCard, (props) => <MemoryCardView {...(props as unknown as MemoryCardViewProps)} />],
  [SearchBox, (props) => <SearchBoxView {...(props as unknown as SearchBoxProps)} id="first-screen-search" />],
  [AllTags, ({ more }) => <MoreTagsButton more={more as number} {...closedPopoverTrigger} />],
  [LoadMore, ({ hasMore, loading }) => hasMore && <LoadMoreView loading={loading as boolean} onLoadMore={() => undefined} />],
  [Link, ({ to, ...props }) => ({ type: "a", props: { ...props, href: to, "data-discover": "true" } })],
  [Slot.Root, slotted],
  [Label.Root, (props) => ({ type: "label", props })],
  [Calendar, icon("Calendar")],
  [CircleAlert, icon("CircleAlert")],
  [MapPin, icon("MapPin")],
  [MessageCircle, icon("MessageCircle")],
  [Pencil, icon("Pencil")],
  [Play, icon("Play")],
  [Plus, icon("Plus")],
  [Search, icon("Search")],
  [Settings, icon("Settings")],
  [Trash, icon("Trash")],
  [User, icon("User")],
]);

export interface FirstScreenData {
  user: StoredUser;
  page: MemoryPage;
  tags: TagList;
  /** Undefined when its answer failed: home is painted without it (the app asks again). */
  onThisDay: OnThisDay | undefined;
  /** The box's name, cover and together-since (ADR 0065); undefined when its answer failed: painted without. */
  box: BoxSettings | undefined;
  /** The device's calendar date, for the box's anniversary line. */
  today: string;
}

/** Whether the painted home can show this answer as React will: a non-empty collection, unfiltered. */
export function canPaintHome({ page }: Pick<FirstScreenData, "page">): boolean {
  return page.total > 0 && page.items.length > 0;
}

/** The home screen with the first page of memories, as `HomeRoute` renders it; not yet in the document. */
export function paintHome(document: Document, { user, page, tags, onThisDay, box, today }: FirstScreenData): HTMLElement {
  // The first screen's cards only: the app's screen, which replaces this one within a second,
  // brings the rest (and nothing on the first screen moves).
  const cards = page.items.slice(0, firstScreenCards);
  const home = (
    <HomeFrame userName={userDisplayName(user)}>
      {box && <BoxBannerView box={box} today={today} />}
      {onThisDay && <OnThisDaySection answer={onThisDay} />}
      <MemoryListView
        searchText=""
        tags={tags.tags}
        selectedTags={[]}
        total={page.total}
        items={cards}
        busy={false}
        loadMore={
          <LoadMore
            hasMore={page.next_cursor !== null && cards.length === page.items.length}
            loading={false}
            onLoadMore={() => undefined}
          />
        }
      />
    </HomeFrame>
  );
  return drawWithoutReact(() => renderToDom(document, home, substitutes)) as HTMLElement;
}
