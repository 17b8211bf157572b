import type { BoxSettings, MemoryPage, OnThisDay, TagList } from "@memory-box/contract";
import { loadWebMessages } from "@memory-box/messages/web";

import { paths } from "@/config/paths";
import { memoriesPath, onThisDayPath, tagsPath } from "@/features/memories/api/list-paths";
import { cardPhotoLimit, firstScreenCards } from "@/features/memories/utils/card-layout";
import { localCalendarDate } from "@/features/memories/utils/calendar-date";
import { boxPath } from "@/lib/box-key";
import { requestEarly, showFirstScreen } from "@/lib/first-screen";
import { initialLocale } from "@/lib/locale";
import { usableStoredSession } from "@/lib/stored-session";

/** What the first screen needs from the page it starts in. */
export interface FirstScreenPage {
  location: Pick<Location, "pathname" | "search" | "hash">;
  storage: Pick<Storage, "getItem">;
  document: Document;
  nowSeconds: number;
}

/**
 * Whether this load can be painted early: home itself, with no query string (the home filter
 * lives in the screen, not the URL) and no fragment (a confirmation link's `#access_token=…`
 * brings a new session that only auth-js may take).
 */
export function isPlainHome(location: FirstScreenPage["location"]): boolean {
  return location.pathname === paths.home && location.search === "" && location.hash === "";
}

/** Photos asked for ahead of the painted cards, held so none is dropped before its card takes it. */
const preloaded: HTMLImageElement[] = [];

/**
 * Asks at once for the photos of the first screen's cards (those the painted `<img>`s load
 * eagerly, by the same URLs, so each is fetched once), before the cards are built and while the
 * app's code is still arriving.
 */
export function preloadFirstPhotos(document: Document, page: MemoryPage): HTMLImageElement[] {
  const images: HTMLImageElement[] = [];
  for (const memory of page.items.slice(0, firstScreenCards))
    for (const photo of memory.photos.slice(0, cardPhotoLimit)) {
      const image = document.createElement("img");
      image.fetchPriority = "high";
      image.src = photo.thumbnail_url;
      images.push(image);
    }
  preloaded.push(...images);
  return images;
}

/**
 * Runs before the app's bundle (ADR 0026): for a member whose stored session can be used as it
 * is, asks at once for the first page of memories and the tags, exactly as home's queries would
 * (the app takes these answers), and draws home from them with home's own components, without
 * React (ADR 0039). No session, a token about to expire, a second factor to prove, another URL, a
 * refused or failed answer: nothing is painted and the app does what it always did. A failed
 * "On this day" or box (ADR 0065) alone does not stop it: home is painted without that section,
 * which is what home shows while it is unknown. Resolves once it painted or decided not to.
 */
export async function startFirstScreen(page: FirstScreenPage): Promise<boolean> {
  if (!isPlainHome(page.location)) return false;
  const session = usableStoredSession(page.storage, page.nowSeconds);
  if (!session) return false;
  const listAnswer = requestEarly(memoriesPath(), session.access_token) as Promise<MemoryPage | undefined>;
  const tagsAnswer = requestEarly(tagsPath, session.access_token) as Promise<TagList | undefined>;
  const onThisDayAnswer = requestEarly(onThisDayPath(localCalendarDate()), session.access_token) as Promise<
    OnThisDay | undefined
  >;
  const boxAnswer = requestEarly(boxPath, session.access_token) as Promise<BoxSettings | undefined>;
  // The painting code is a chunk of its own, fetched while the API answers: the sign-in page and
  // every other screen never load it.
  const painter = import("@/app/first-screen/paint-home");
  // The member's language, in the same messages the app uses: in the built page, the first
  // screen's part of the catalogue in that language only, fetched beside the answers from the file
  // the app takes it from later (so it is fetched once).
  const locale = initialLocale(page.storage);
  const messages = loadWebMessages(locale, ["first"]);
  // The photos are asked for as soon as the list (which sets their cookie) is in, before the
  // cards are built: they are what the screen waits for.
  void listAnswer.then((list) => list && preloadFirstPhotos(page.document, list));
  const [list, tags, onThisDay, box, { canPaintHome, paintHome, createIntl, setActiveIntl }, webMessages] = await Promise.all([
    listAnswer,
    tagsAnswer,
    onThisDayAnswer,
    boxAnswer,
    painter,
    messages,
  ]);
  setActiveIntl(createIntl(locale, webMessages));
  if (!list || !tags || !canPaintHome({ page: list })) return false;
  const root = page.document.getElementById("root");
  if (!root) return false;
  const screen = page.document.createElement("div");
  screen.id = "first-screen";
  // Looks like home, but is not yet the app: nothing in it can be used until React replaces it.
  screen.inert = true;
  screen.append(paintHome(page.document, { user: session.user, page: list, tags, onThisDay, box, today: localCalendarDate() }));
  return showFirstScreen(screen, root);
}
