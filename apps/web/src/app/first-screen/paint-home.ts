import type { Memory, MemoryPage, OnThisDay, Photo, TagList } from "@memory-box/contract";
import { iconMarkup } from "virtual:first-screen-icons";

import { paths } from "@/config/paths";
import { authorName } from "@/features/memories/utils/author-name";
import { cardPhotoLimit, firstScreenCards, lonePhotoShape, tagFilterLimit } from "@/features/memories/utils/card-layout";
import { calendarDate } from "@/features/memories/utils/memory-dates";
import { yearsAgoLabel } from "@/features/memories/utils/on-this-day";
import { commentCountText, hasResponses } from "@/features/memories/utils/responses";
import { thumbHashAverageColour } from "@/features/memories/utils/thumbhash";
import type { StoredUser } from "@/lib/stored-session";
import { userDisplayName } from "@/lib/user-name";

/**
 * Home as the React app renders it (routes/home.tsx, MemoryList, MemoryGrid, MemoryCard,
 * MemoryPhotosGrid, PhotoImage and the ui primitives they use), in plain DOM: the same elements,
 * classes and texts, so that when React's screen replaces this one nothing moves (ADR 0026).
 * `paint-home.test.tsx` renders both from the same data and compares them. Text goes in as text,
 * never as markup; the only markup is the build's own icons.
 */

// The class lists the ui primitives compute (class-variance-authority and tailwind-merge), as they come out.
const buttonBase =
  "inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap rounded-md text-sm font-medium transition-all outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4";
const smallButtonBase =
  "inline-flex shrink-0 items-center justify-center whitespace-nowrap text-sm font-medium transition-all outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none disabled:opacity-50 aria-invalid:border-destructive aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40 [&_svg]:pointer-events-none [&_svg]:shrink-0 [&_svg:not([class*='size-'])]:size-4";
const primary = "bg-primary text-primary-foreground shadow-xs hover:bg-primary/90";
const outline =
  "border bg-background shadow-xs hover:bg-accent hover:text-accent-foreground dark:border-input dark:bg-input/30 dark:hover:bg-input/50";
const ghost = "hover:bg-accent hover:text-accent-foreground dark:hover:bg-accent/50";
const defaultSize = "h-9 px-4 py-2 has-[>svg]:px-3";
const smallSize = "h-8 gap-1.5 rounded-md px-3 has-[>svg]:px-2.5";
const badgeClass =
  "inline-flex w-fit shrink-0 items-center justify-center gap-1 overflow-hidden rounded-md border px-2 py-0.5 text-xs font-medium whitespace-nowrap transition-[color,box-shadow] focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40 [&>svg]:pointer-events-none [&>svg]:size-3 border-transparent bg-secondary text-secondary-foreground [a&]:hover:bg-secondary/90";
const labelClass =
  "flex items-center gap-2 text-sm leading-none font-medium select-none group-data-[disabled=true]:pointer-events-none group-data-[disabled=true]:opacity-50 peer-disabled:cursor-not-allowed peer-disabled:opacity-50 sr-only";
const searchInputClass =
  "h-9 w-full min-w-0 rounded-md border border-input px-3 py-1 text-base shadow-xs transition-[color,box-shadow] outline-none selection:bg-primary selection:text-primary-foreground file:inline-flex file:h-7 file:border-0 file:bg-transparent file:text-sm file:font-medium file:text-foreground placeholder:text-muted-foreground disabled:pointer-events-none disabled:cursor-not-allowed disabled:opacity-50 md:text-sm dark:bg-input/30 focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 aria-invalid:border-destructive aria-invalid:ring-destructive/20 dark:aria-invalid:ring-destructive/40 bg-background pl-9";
const cardClass =
  "flex flex-col rounded-xl border bg-card py-6 text-card-foreground shadow-sm relative h-full gap-4 transition-shadow hover:shadow-md";
// A card with photos leads with them, edge to edge: no padding above, the grid's top corners the card's.
const photoCardClass = `${cardClass} pt-0`;
const cardPhotosClass = "pointer-events-none rounded-t-[calc(var(--radius-xl)-1px)]";
const cardHeaderClass =
  "@container/card-header auto-rows-min grid-rows-[auto_auto] px-6 [.border-b]:pb-6 flex items-start justify-between gap-2";
const cardLinkClass =
  "outline-none after:absolute after:inset-0 after:rounded-xl after:content-[''] focus-visible:after:ring-[3px] focus-visible:after:ring-ring/50";

type Child = Node | string | null | false | undefined;

/** An element with attributes (null and undefined left out) and children (strings become text). */
function h(
  document: Document,
  tag: string,
  attributes: Record<string, string | null | undefined>,
  ...children: Child[]
): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) if (value != null) element.setAttribute(name, value);
  for (const child of children) if (child) element.append(child);
  return element;
}

/** One of the build's icons (trusted markup from vite.config.ts, never data). */
function icon(document: Document, name: keyof typeof iconMarkup): Node {
  const template = document.createElement("template");
  template.innerHTML = iconMarkup[name];
  return template.content.firstChild!;
}

export interface FirstScreenData {
  user: StoredUser;
  page: MemoryPage;
  tags: TagList;
  /** Undefined when its answer failed: home is painted without it (the app asks again). */
  onThisDay: OnThisDay | undefined;
}

/** Whether the painted home can show this answer as React will: a non-empty collection, unfiltered. */
export function canPaintHome({ page }: Pick<FirstScreenData, "page">): boolean {
  return page.total > 0 && page.items.length > 0;
}

const shortMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * `formatMemoryDate`'s text ("Jun 1, 2024") without `Intl`: the first date formatter a page makes
 * costs ~20 ms on a slow machine, at the moment the first screen is built. A test holds the two
 * to the same text for every month.
 */
export function paintedMemoryDate(value: string): string {
  const date = calendarDate(value);
  return date ? `${shortMonths[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}` : value;
}

/** The home screen with the first page of memories, as `HomeRoute` renders it; not yet in the document. */
export function paintHome(document: Document, { user, page, tags, onThisDay }: FirstScreenData): HTMLElement {
  const d = (tag: string, attributes: Record<string, string | null | undefined>, ...children: Child[]) =>
    h(document, tag, attributes, ...children);
  const shownTags = tags.tags.slice(0, tagFilterLimit);
  const moreTags = tags.tags.length - shownTags.length;
  const shownCards = page.items.slice(0, firstScreenCards);

  const header = d(
    "header",
    { class: "border-b bg-background" },
    d(
      "div",
      { class: "mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4 py-4" },
      d(
        "div",
        {},
        d("h1", { class: "text-xl font-semibold" }, "Memory Box"),
        d("p", { class: "text-sm text-muted-foreground" }, `Welcome back, ${userDisplayName(user)}!`),
      ),
      d(
        "div",
        { class: "flex flex-wrap gap-2" },
        d(
          "button",
          { "data-slot": "button", class: `${buttonBase} ${primary} ${defaultSize}` },
          icon(document, "plus"),
          "Add Memory",
        ),
        d(
          "a",
          {
            "data-slot": "button",
            "data-variant": "outline",
            class: `${buttonBase} ${outline} ${defaultSize}`,
            href: paths.settings,
            "data-discover": "true",
          },
          icon(document, "settings"),
          "Settings",
        ),
        d(
          "button",
          { "data-slot": "button", "data-variant": "outline", class: `${buttonBase} ${outline} ${defaultSize}` },
          "Sign Out",
        ),
      ),
    ),
  );

  const search = d(
    "div",
    { role: "search", class: "relative" },
    d("label", { "data-slot": "label", class: labelClass, for: "first-screen-search" }, "Search memories"),
    icon(document, "search"),
    d("input", {
      "data-slot": "input",
      class: searchInputClass,
      id: "first-screen-search",
      placeholder: "Search memories...",
      autocomplete: "off",
      type: "search",
      value: "",
    }),
  );
  const tagButton = (tag: string, active: boolean) =>
    d(
      "button",
      {
        "data-slot": "button",
        "data-variant": active ? "default" : "outline",
        "data-size": "sm",
        class: `${smallButtonBase} ${active ? primary : outline} ${smallSize}`,
        "aria-pressed": String(active),
      },
      tag,
    );
  const tagFilter = d(
    "div",
    { role: "group", "aria-label": "Filter by tag", class: "flex flex-wrap items-center gap-2" },
    tagButton("All Tags", true),
    ...shownTags.map(({ tag }) => tagButton(tag, false)),
    moreTags > 0 &&
      d(
        "button",
        {
          // Radix's popover trigger renders the badge and names its slot.
          "data-slot": "popover-trigger",
          "data-variant": "secondary",
          class: badgeClass,
          type: "button",
          "aria-label": `+${moreTags} more: all tags`,
          "aria-haspopup": "dialog",
          "aria-expanded": "false",
          "data-state": "closed",
        },
        `+${moreTags} more`,
      ),
  );

  const list = d(
    "div",
    { class: "flex flex-col gap-6" },
    d("div", { class: "flex flex-col gap-4" }, search, tagFilter),
    // The count's row and the timeline's column keep their space before the timeline is there.
    d(
      "div",
      { class: "flex min-h-9 flex-wrap items-center justify-between gap-2" },
      d("p", { class: "text-sm font-medium", "aria-live": "polite" }, `${page.total} memories`),
    ),
    d(
      "div",
      { class: "grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_8rem]" },
      d(
        "div",
        { class: "flex flex-col gap-6" },
        d(
          "div",
          { "aria-busy": "false" },
          d(
            "ul",
            { "aria-label": "Memories", class: "grid grid-cols-1 items-start gap-6 md:grid-cols-2 lg:grid-cols-3" },
            // The first screen's cards only: the app's screen, which replaces this one within a
            // second, brings the rest (and nothing on the first screen moves).
            ...shownCards.map((memory) => d("li", {}, card(document, memory, true))),
          ),
        ),
        page.next_cursor !== null &&
          shownCards.length === page.items.length &&
          d(
            "div",
            { class: "flex justify-center py-2" },
            d(
              "button",
              { "data-slot": "button", "data-variant": "outline", class: `${buttonBase} ${outline} ${defaultSize}` },
              "Load more",
            ),
          ),
      ),
    ),
  );

  return d(
    "div",
    { class: "min-h-svh bg-muted" },
    header,
    d("main", { class: "mx-auto max-w-6xl p-4" }, onThisDaySection(document, onThisDay), list),
  );
}

/** `OnThisDaySection`. */
function onThisDaySection(document: Document, answer: OnThisDay | undefined): HTMLElement | null {
  if (!answer || answer.groups.length === 0) return null;
  const d = (tag: string, attributes: Record<string, string | null | undefined>, ...children: Child[]) =>
    h(document, tag, attributes, ...children);
  return d(
    "section",
    { "aria-labelledby": "on-this-day-heading", class: "mb-6 flex flex-col gap-3" },
    d("h2", { id: "on-this-day-heading", class: "text-lg font-semibold" }, "On this day"),
    d(
      "div",
      { class: "flex gap-6 overflow-x-auto pb-1" },
      ...answer.groups.map((group) =>
        d(
          "div",
          { class: "flex shrink-0 flex-col gap-2" },
          d("h3", { class: "text-sm font-medium" }, yearsAgoLabel(group.years_ago)),
          d(
            "ul",
            { "aria-label": yearsAgoLabel(group.years_ago), class: "flex gap-3" },
            ...group.memories.map((memory) =>
              d(
                "li",
                { class: "w-32 shrink-0" },
                d(
                  "a",
                  {
                    class: "flex flex-col gap-1.5 rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50",
                    href: paths.memory(memory.id),
                    "data-discover": "true",
                  },
                  d(
                    "div",
                    { class: "aspect-square overflow-hidden rounded-md border bg-card" },
                    memory.photos[0]
                      ? image(document, memory.photos[0], "", "object-cover", true)
                      : memory.content && d("p", { class: "line-clamp-5 p-2 text-xs break-words" }, memory.content),
                  ),
                  d("span", { class: "truncate text-sm font-medium" }, memory.title),
                  memory.memory_date &&
                    d("time", { datetime: memory.memory_date, class: "text-xs" }, paintedMemoryDate(memory.memory_date)),
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

/** `MemoryCard`. */
function card(document: Document, memory: Memory, eager: boolean): HTMLElement {
  const d = (tag: string, attributes: Record<string, string | null | undefined>, ...children: Child[]) =>
    h(document, tag, attributes, ...children);
  const iconButton = (label: string, title: string, name: "pencil" | "trash", extra: Record<string, string>) =>
    d(
      "button",
      {
        "data-slot": "button",
        "data-variant": "ghost",
        "data-size": "icon",
        class: `${buttonBase} ${ghost} size-9`,
        "aria-label": `${label} ${memory.title}`,
        title,
        ...extra,
      },
      icon(document, name),
    );

  const withPhotos = memory.photos.length > 0;
  const tags = memory.tags ?? [];
  return d(
    "div",
    { "data-slot": "card", class: withPhotos ? photoCardClass : cardClass },
    photosGrid(document, memory.photos, eager),
    d(
      "div",
      { "data-slot": "card-header", class: cardHeaderClass },
      d(
        "div",
        { class: "min-w-0 space-y-1.5" },
        d(
          "h2",
          { class: "text-lg leading-tight font-semibold break-words" },
          d("a", { class: cardLinkClass, href: paths.memory(memory.id), "data-discover": "true" }, memory.title),
        ),
        d(
          "div",
          { class: "flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground" },
          d("span", { class: "inline-flex items-center gap-1" }, icon(document, "user"), authorName(memory)),
          memory.memory_date &&
            d(
              "span",
              { class: "inline-flex items-center gap-1" },
              icon(document, "calendar"),
              d("time", { datetime: memory.memory_date }, paintedMemoryDate(memory.memory_date)),
            ),
        ),
      ),
      d(
        "div",
        { class: "relative z-10 flex shrink-0 gap-1" },
        iconButton("Edit", "Edit", "pencil", {}),
        iconButton("Delete", "Delete", "trash", { "aria-haspopup": "dialog" }),
      ),
    ),
    (memory.content || tags.length > 0 || hasResponses(memory)) &&
      d(
        "div",
        { "data-slot": "card-content", class: "px-6 space-y-3" },
        memory.content &&
          d(
            "p",
            {
              class: withPhotos
                ? "break-words whitespace-pre-line line-clamp-3 text-sm text-muted-foreground"
                : "break-words whitespace-pre-line line-clamp-6 font-heading text-base leading-relaxed text-card-foreground",
            },
            memory.content,
          ),
        tags.length > 0 &&
          d(
            "ul",
            { "aria-label": "Tags", class: "flex flex-wrap gap-1.5" },
            ...tags.map((tag) =>
              d("li", {}, d("span", { "data-slot": "badge", "data-variant": "secondary", class: badgeClass }, tag)),
            ),
          ),
        responseCounts(document, memory),
      ),
  );
}

/** `ResponseCounts`. */
function responseCounts(document: Document, memory: Memory): HTMLElement | null {
  if (!hasResponses(memory)) return null;
  const d = (tag: string, attributes: Record<string, string | null | undefined>, ...children: Child[]) =>
    h(document, tag, attributes, ...children);
  return d(
    "ul",
    { "aria-label": "Comments and reactions", class: "flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground" },
    memory.comment_count > 0 &&
      d(
        "li",
        { class: "inline-flex items-center gap-1" },
        icon(document, "comments"),
        d("span", { "aria-hidden": "true" }, String(memory.comment_count)),
        d("span", { class: "sr-only" }, commentCountText(memory.comment_count)),
      ),
    ...memory.reactions.map((reaction) => d("li", {}, `${reaction.emoji} ${reaction.count}`)),
  );
}

/** `MemoryPhotosGrid` with `PhotoImage`s as they are before they have loaded. */
function photosGrid(document: Document, photos: Photo[], eager: boolean): HTMLElement | null {
  if (photos.length === 0) return null;
  if (photos.length === 1) {
    const photo = photos[0]!;
    const shape = lonePhotoShape(photo);
    const box = h(document, "div", { class: `overflow-hidden bg-muted ${cardPhotosClass}` });
    box.style.aspectRatio = String(shape.ratio);
    box.append(image(document, photo, "Memory photo 1", shape.fills ? "object-cover" : "object-contain", eager));
    return box;
  }
  const shown = photos.slice(0, cardPhotoLimit);
  const more = photos.length - shown.length;
  return h(
    document,
    "div",
    { class: `grid grid-cols-2 gap-0.5 overflow-hidden ${cardPhotosClass}` },
    ...shown.map((photo, index) =>
      h(
        document,
        "div",
        { class: "relative aspect-square overflow-hidden" },
        image(document, photo, `Memory photo ${index + 1}`, "object-cover", eager),
        more > 0 &&
          index === shown.length - 1 &&
          h(
            document,
            "div",
            { class: "absolute inset-0 flex items-center justify-center bg-black/60 text-lg font-semibold text-white" },
            `+${more} more`,
          ),
      ),
    ),
  );
}

function image(document: Document, photo: Photo, alt: string, fit: string, eager: boolean): HTMLImageElement {
  const img = h(document, "img", {
    width: String(photo.width),
    height: String(photo.height),
    alt,
    loading: eager ? "eager" : "lazy",
    decoding: "async",
    "data-loaded": "false",
    class: `bg-muted bg-cover bg-center size-full ${fit}`,
  }) as HTMLImageElement;
  const tint = thumbHashAverageColour(photo.placeholder);
  if (tint) img.style.backgroundColor = tint;
  // Last, as React sets it: the request starts with every other attribute in place.
  img.setAttribute("src", photo.thumbnail_url);
  return img;
}
