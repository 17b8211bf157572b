import type { FrameSlide } from "@memory-box/contract";
import { WifiOff } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";

import { Spinner } from "@/components/ui/spinner";
import { FrameRemovedError } from "@/features/frame/api/frame-session";
import { fetchShow, frameToday, keptShow, loadMedia, type FrameShow } from "@/features/frame/api/slides";
import { goFullScreen } from "@/features/frame/components/full-screen";
import { indexInNewList, isNight, slidesAt } from "@/features/frame/utils/show-order";
import { dateTimeFormat, useIntl } from "@/lib/intl";
import { pause } from "@/lib/pause";
import { cn } from "@/lib/utils";

/** A slide ready to show: its bytes as an object URL (a video's, or its poster's when the video could not load). */
interface ReadySlide {
  slide: FrameSlide;
  url: string;
  video: boolean;
}

/** What is on the screen at once: one slide, or two portrait photos side by side. */
interface Layer {
  key: number;
  slides: ReadySlide[];
}

/** When the list is asked for again if the server never said (it says `refresh_seconds`). */
const defaultRefreshSeconds = 30;
/** After a failed refresh the frame asks again this soon, however long its usual wait. */
const offlineRetrySeconds = 15;
/** How long a video may play before the show goes on anyway. */
const longestVideoSeconds = 300;

export interface SlideshowOptions {
  /** How long a photo shows. */
  slideSeconds?: number;
  /** The crossfade's length (none when the visitor prefers reduced motion). */
  fadeMs?: number;
}

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function isLandscape(): boolean {
  return window.innerWidth > window.innerHeight;
}

/** Decodes a photo before it is shown, so the crossfade never shows it half drawn. */
async function decoded(url: string): Promise<void> {
  const image = new Image();
  image.src = url;
  if (typeof image.decode === "function") await image.decode().catch(() => undefined);
}

/**
 * The frame's slideshow (ADR 0076): full screen on black, one memory's photo after another with a
 * crossfade (a cut for reduced motion), its title and date; two portrait photos side by side on a
 * landscape screen; videos muted, inline, to their end. The list is asked for again every
 * `refresh_seconds`; through an outage the frame shows what it kept (the list, the photos) and says
 * it is offline, nothing more. Each photo's object URL is released once it has left the screen,
 * so the frame's memory stays flat over days. `onRemoved`: the server no longer knows the frame.
 */
export function Slideshow({ onRemoved, slideSeconds = 10, fadeMs = 1000 }: { onRemoved: () => void } & SlideshowOptions) {
  const intl = useIntl();
  const [show, setShow] = useState<FrameShow | null>(keptShow);
  const [offline, setOffline] = useState(false);
  const [loaded, setLoaded] = useState(show !== null);
  const [layers, setLayers] = useState<Layer[]>([]);
  /** The list as the show's loop reads it (set with the state, so the loop sees a new list at once). */
  const showRef = useRef(show);
  /** Wakes the show's loop when a new list arrives (an empty list waits for one). */
  const listChanged = useRef<(() => void) | undefined>(undefined);
  /** Ends the wait for a playing video. */
  const videoEnded = useRef<(() => void) | undefined>(undefined);
  const removedRef = useRef(onRemoved);
  useEffect(() => {
    removedRef.current = onRemoved;
  }, [onRemoved]);

  // The list, now and every `refresh_seconds`; sooner again after a failure, and when the browser is back online.
  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let inFlight = false;
    const refresh = async () => {
      if (inFlight) return;
      inFlight = true;
      clearTimeout(timer);
      let wait = showRef.current?.refresh_seconds ?? defaultRefreshSeconds;
      try {
        const fresh = await fetchShow(frameToday(), controller.signal);
        showRef.current = fresh;
        setShow(fresh);
        setOffline(false);
        wait = fresh.refresh_seconds;
        listChanged.current?.();
      } catch (error) {
        if (controller.signal.aborted) return;
        if (error instanceof FrameRemovedError) {
          removedRef.current();
          return;
        }
        setOffline(true);
        wait = Math.min(wait, offlineRetrySeconds);
      } finally {
        inFlight = false;
        setLoaded(true);
      }
      if (!controller.signal.aborted) timer = setTimeout(() => void refresh(), wait * 1000);
    };
    void refresh();
    const online = () => void refresh();
    window.addEventListener("online", online);
    return () => {
      controller.abort();
      clearTimeout(timer);
      window.removeEventListener("online", online);
    };
  }, []);

  // The show itself: prepare a slide (its bytes, decoded), put it on top, release the one under it after the fade.
  useEffect(() => {
    const controller = new AbortController();
    const { signal } = controller;
    const reduced = prefersReducedMotion();
    const fade = reduced ? 0 : fadeMs;
    /** Every object URL made and not yet released. */
    const live = new Set<string>();
    const release = (slides: readonly ReadySlide[]) => {
      for (const { url } of slides) {
        if (!live.delete(url)) continue;
        URL.revokeObjectURL(url);
      }
    };

    const prepare = async (slides: FrameSlide[]): Promise<ReadySlide[]> => {
      const ready: ReadySlide[] = [];
      for (const slide of slides) {
        let blob: Blob | undefined;
        let video = false;
        if (slide.kind !== "photo" && slide.video_url) {
          blob = await loadMedia(slide.video_url, { keep: false, signal }).catch((error: unknown) => {
            if (error instanceof FrameRemovedError) throw error;
            return undefined;
          });
          video = blob !== undefined;
        }
        blob ??= await loadMedia(slide.url, { signal }).catch((error: unknown) => {
          if (error instanceof FrameRemovedError) throw error;
          return undefined;
        });
        if (!blob) continue;
        const url = URL.createObjectURL(blob);
        live.add(url);
        if (signal.aborted) {
          release([{ slide, url, video }]);
          continue;
        }
        if (!video) await decoded(url);
        ready.push({ slide, url, video });
      }
      return ready;
    };

    const run = async () => {
      let index = 0;
      /** The slide due next, found again by its id in a list that changed meanwhile. */
      let upcoming: string | undefined;
      let key = 0;
      let shown: ReadySlide[] = [];
      let next: { index: number; photoIds: string; ready: Promise<ReadySlide[]> } | undefined;
      const ahead = (at: number, slides: FrameSlide[]) => {
        const group = slidesAt(slides, at, isLandscape());
        const ready = prepare(group);
        // Failures are met when the slide is due; unhandled until then is not an error.
        ready.catch(() => undefined);
        return { index: at, photoIds: group.map((slide) => slide.photo_id).join(), ready };
      };
      while (!signal.aborted) {
        const slides = showRef.current?.slides ?? [];
        if (slides.length === 0) {
          release(shown);
          shown = [];
          setLayers([]);
          await new Promise<void>((resolve) => {
            listChanged.current = resolve;
            signal.addEventListener("abort", () => resolve(), { once: true });
          });
          continue;
        }
        index = indexInNewList(slides, upcoming, index);
        const group = slidesAt(slides, index, isLandscape());
        const wanted = group.map((slide) => slide.photo_id).join();
        let ready: ReadySlide[];
        if (next && next.index === index && next.photoIds === wanted) ready = await next.ready;
        else {
          if (next) release(await next.ready.catch(() => []));
          ready = await prepare(group);
        }
        next = undefined;
        if (signal.aborted) {
          release(ready);
          break;
        }
        if (ready.length === 0) {
          // Neither kept nor reachable: the next one, after a short wait when none of them can show.
          index = (index + group.length) % slides.length;
          if (index === 0 || slides.length === 1) await pause(5000, signal);
          continue;
        }
        key += 1;
        const layer: Layer = { key, slides: ready };
        setLayers((current) => [...current.slice(-1), layer]);
        const leaving = shown;
        shown = ready;
        setTimeout(() => {
          release(leaving);
          setLayers((current) => current.filter((other) => other === layer || other.key > layer.key));
        }, fade);
        const following = (index + group.length) % slides.length;
        next = ahead(following, slides);
        const video = ready.find((slide) => slide.video);
        if (video) {
          await Promise.race([
            new Promise<void>((resolve) => {
              videoEnded.current = resolve;
            }),
            pause(longestVideoSeconds * 1000, signal),
          ]);
          videoEnded.current = undefined;
        } else await pause(slideSeconds * 1000, signal);
        index = following;
        upcoming = slides[following]?.photo_id;
      }
      release(shown);
      if (next) release(await next.ready.catch(() => []));
    };

    run().catch((error: unknown) => {
      if (error instanceof FrameRemovedError) removedRef.current();
      else if (!signal.aborted) console.error("The slideshow stopped:", error);
    });
    return () => {
      controller.abort();
      listChanged.current?.();
      for (const url of live) URL.revokeObjectURL(url);
      live.clear();
    };
  }, [slideSeconds, fadeMs]);

  const display = show?.frame.display;
  const now = useMinute();
  const night = isNight(display?.night ?? null, now);
  const onVideoEnded = useCallback(() => videoEnded.current?.(), []);

  return (
    <main className="fixed inset-0 cursor-none overflow-hidden bg-black text-white" onClick={goFullScreen}>
      <h1 className="sr-only">{show?.frame.name ?? intl.formatMessage({ id: "frame.title" })}</h1>
      {layers.map((layer, position) => (
        <SlideLayer
          key={layer.key}
          layer={layer}
          fadeMs={fadeMs}
          top={position === layers.length - 1}
          onVideoEnded={onVideoEnded}
        />
      ))}
      {!loaded && layers.length === 0 && (
        <Spinner size="lg" className="absolute inset-0 flex-col [&_span]:text-white/80">
          {intl.formatMessage({ id: "frame.loading" })}
        </Spinner>
      )}
      {loaded && show && show.slides.length === 0 && (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-8 text-center">
          <p className="text-3xl font-semibold text-balance">{intl.formatMessage({ id: "frame.empty.title" })}</p>
          <p className="max-w-prose text-lg text-balance text-white/75">
            {intl.formatMessage({ id: "frame.empty.description" }, { name: show.frame.name })}
          </p>
        </div>
      )}
      {loaded && !show && offline && (
        <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 p-8 text-center">
          <WifiOff aria-hidden="true" className="size-10 text-white/70" />
          <p className="text-2xl font-semibold text-balance">{intl.formatMessage({ id: "frame.unreachable" })}</p>
        </div>
      )}
      {display?.clock && (
        <p
          className="absolute end-6 top-4 text-4xl font-light tabular-nums [text-shadow:0_1px_6px_rgb(0_0_0/0.7)]"
          data-testid="frame-clock"
        >
          {dateTimeFormat({ hour: "numeric", minute: "2-digit" }).format(now)}
        </p>
      )}
      {offline && show && (
        <p
          className="absolute end-4 bottom-4 flex items-center gap-2 rounded-full bg-black/60 px-3 py-1 text-sm text-white/80"
          role="status"
        >
          <WifiOff aria-hidden="true" className="size-4" />
          {intl.formatMessage({ id: "frame.offline" })}
        </p>
      )}
      <div
        aria-hidden="true"
        data-testid="frame-night"
        data-night={night}
        className={cn(
          "pointer-events-none absolute inset-0 bg-black transition-opacity duration-1000",
          night ? "opacity-70" : "opacity-0",
        )}
      />
    </main>
  );
}

function SlideLayer({
  layer,
  fadeMs,
  top,
  onVideoEnded,
}: {
  layer: Layer;
  fadeMs: number;
  top: boolean;
  onVideoEnded: () => void;
}) {
  const [reduced] = useState(prefersReducedMotion);
  const [visible, setVisible] = useState(reduced || fadeMs === 0);
  useEffect(() => {
    if (visible) return;
    // Drawn transparent first, then faded in over the one under it.
    let second = 0;
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(() => setVisible(true));
    });
    return () => {
      cancelAnimationFrame(first);
      cancelAnimationFrame(second);
    };
  }, [visible]);
  return (
    <div
      className={cn("absolute inset-0 grid bg-black", layer.slides.length > 1 && "grid-cols-2 gap-2")}
      style={{ opacity: visible ? 1 : 0, transition: reduced ? undefined : `opacity ${fadeMs}ms ease-in-out` }}
      aria-hidden={!top}
      data-testid="frame-layer"
    >
      {layer.slides.map(({ slide, url, video }) => (
        <figure key={slide.photo_id} className="relative min-h-0 min-w-0">
          {video ? (
            <video
              src={url}
              className="size-full object-contain"
              autoPlay
              muted
              playsInline
              onEnded={top ? onVideoEnded : undefined}
              onError={top ? onVideoEnded : undefined}
            />
          ) : (
            <img src={url} alt={slide.title} className="size-full object-contain" />
          )}
          <figcaption className="absolute inset-x-0 bottom-0 flex flex-col gap-1 bg-gradient-to-t from-black/70 to-transparent px-6 pt-16 pb-5">
            <span className="text-2xl font-semibold text-balance [text-shadow:0_1px_6px_rgb(0_0_0/0.7)] md:text-3xl">
              {slide.title}
            </span>
            {slide.memory_date && <span className="text-lg text-white/80">{formatSlideDate(slide.memory_date)}</span>}
          </figcaption>
        </figure>
      ))}
    </div>
  );
}

/** "June 1, 2024" in the frame's language, from a calendar date (its own local day, not UTC's). */
function formatSlideDate(value: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return value;
  const date = new Date(2000, Number(match[2]) - 1, Number(match[3]));
  date.setFullYear(Number(match[1]));
  return dateTimeFormat({ year: "numeric", month: "long", day: "numeric" }).format(date);
}

/** Now, again at each new minute (the clock, the night's dimming). */
function useMinute(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), 15_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}
