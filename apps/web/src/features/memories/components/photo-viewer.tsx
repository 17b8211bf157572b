import { useEffect, useRef, useState, type PointerEvent, type ReactNode, type RefObject, type WheelEvent } from "react";
import { PhotoLimits, type Memory } from "@memory-box/contract";
import { ChevronLeftIcon, ChevronRightIcon, DownloadIcon, MaximizeIcon, PencilIcon, StarIcon, XIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { usePhotoDetails } from "@/features/memories/api/photo-details";
import { MediaMark } from "@/features/memories/components/media-mark";
import { LivePhoto, VideoPlayer } from "@/features/memories/components/video-player";
import { downloadName, downloadSource } from "@/features/memories/utils/download-name";
import { isPlayableVideo, mediaLabel } from "@/features/memories/utils/media";
import { notify } from "@/lib/notify";
import { cn } from "@/lib/utils";
import { useIntl } from "@/lib/intl";

export interface PhotoViewerProps {
  memory: Memory;
  /** 0-based index of the photo shown. */
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

const maxZoom = 4;
/** A horizontal swipe longer than this (px) goes to the neighbouring photo. */
const swipeDistance = 60;
/** A touch that moves less than this (px) is a tap; two within `doubleTapMs` are a double tap. */
const tapSlop = 10;
const doubleTapMs = 300;

/**
 * One photo of a memory, whole: fitted to the screen, uncropped, from the ~1600 px preview, with
 * the full-size copy a click away. Arrow keys, the on-screen buttons and a swipe step through the
 * memory's photos; the wheel or a pinch zooms, a drag moves the zoomed photo; Escape returns.
 * Videos are among them: one plays in the browser's player (arrow keys then seek it while it has
 * focus; a swipe and the buttons still step), a Live Photo's motion plays on hover or press.
 */
export function PhotoViewer(props: PhotoViewerProps) {
  const box = useRef<HTMLDivElement>(null);
  useFocusTrap(box);
  // A fresh frame per photo: every photo starts fitted, at the preview's size.
  return (
    <div ref={box} className="contents">
      <PhotoViewerFrame key={props.index} {...props} />
    </div>
  );
}

/**
 * Keeps Tab inside the viewer while it is open (it lies over the page) and gives focus back to what
 * had it (the photo's tile) when it closes. Each photo's frame is new, so a focus lost with the old
 * frame comes back to the viewer.
 */
function useFocusTrap(box: RefObject<HTMLDivElement | null>) {
  // What had focus before the viewer rendered (its frame takes the focus in its first effect).
  const [opener] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(() => {
    const focusables = () =>
      [
        ...(box.current?.querySelectorAll<HTMLElement>("a[href], button:not([disabled]), video[controls], [tabindex]") ?? []),
      ].filter((element) => element.tabIndex >= 0);
    function onFocusIn(event: FocusEvent) {
      if (box.current && event.target instanceof Node && !box.current.contains(event.target)) focusables()[0]?.focus();
    }
    function onKey(event: KeyboardEvent) {
      if (event.key !== "Tab") return;
      const all = focusables();
      if (all.length === 0) return;
      const first = all[0]!;
      const last = all.at(-1)!;
      const inside = box.current?.contains(document.activeElement) ?? false;
      if (event.shiftKey && (document.activeElement === first || !inside)) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
        event.preventDefault();
        first.focus();
      }
    }
    box.current?.querySelector<HTMLElement>("[role=dialog]")?.focus();
    // The page behind does not scroll while the viewer lies over it.
    const overflow = document.body.style.overflow;
    document.body.style.overflow = "hidden";
    document.addEventListener("focusin", onFocusIn);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("focusin", onFocusIn);
      document.removeEventListener("keydown", onKey);
      document.body.style.overflow = overflow;
      if (opener?.isConnected) opener.focus();
    };
  }, [box, opener]);
}

function PhotoViewerFrame({ memory, index, onIndexChange, onClose }: PhotoViewerProps) {
  const photos = memory.photos;
  const photo = photos[index]!;
  const intl = useIntl();
  const [fullSize, setFullSize] = useState(false);
  const [zoom, setZoom] = useState({ scale: 1, x: 0, y: 0 });
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<
    { startX: number; startY: number; downX: number; downY: number; pinchDistance?: number; pinchScale?: number } | undefined
  >(undefined);
  const hasPrevious = index > 0;
  const hasNext = index < photos.length - 1;
  const zoomable = photo.kind !== "video";
  const download = downloadSource(photo);
  const root = useRef<HTMLDivElement>(null);
  const lastTap = useRef(0);

  // The frame before this one (another photo) may have taken the focus with it.
  useEffect(() => {
    if (!root.current?.contains(document.activeElement)) root.current?.focus();
  }, []);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      // The arrow toward the reading direction's end is "next": → in English, ← in Arabic.
      const forward = readsRightToLeft() ? "ArrowLeft" : "ArrowRight";
      const back = readsRightToLeft() ? "ArrowRight" : "ArrowLeft";
      // A focused player's arrows seek it; in the caption's field, keys are the text's (Escape cancels it).
      if (event.key !== "Escape" && event.target instanceof HTMLMediaElement) return;
      if (event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLInputElement) return;
      if (event.key === "Escape") onClose();
      else if (event.key === back && hasPrevious) onIndexChange(index - 1);
      else if (event.key === forward && hasNext) onIndexChange(index + 1);
    }
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [index, hasPrevious, hasNext, onIndexChange, onClose]);

  function zoomTo(scale: number) {
    if (!zoomable) return;
    const clamped = Math.min(maxZoom, Math.max(1, scale));
    setZoom((current) => (clamped === 1 ? { scale: 1, x: 0, y: 0 } : { ...current, scale: clamped }));
    if (clamped > 1) setFullSize(true);
  }

  function onWheel(event: WheelEvent) {
    zoomTo(zoom.scale * (event.deltaY < 0 ? 1.2 : 1 / 1.2));
  }

  function onPointerDown(event: PointerEvent) {
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    // The player's own controls keep their pointer; a swipe across it is still seen as it bubbles.
    if (!(event.target instanceof HTMLMediaElement)) event.currentTarget.setPointerCapture?.(event.pointerId);
    const points = [...pointers.current.values()];
    if (points.length === 2) {
      gesture.current = {
        startX: 0,
        startY: 0,
        downX: 0,
        downY: 0,
        pinchDistance: distance(points[0]!, points[1]!),
        pinchScale: zoom.scale,
      };
    } else {
      gesture.current = {
        startX: event.clientX - zoom.x,
        startY: event.clientY - zoom.y,
        downX: event.clientX,
        downY: event.clientY,
      };
    }
  }

  function onPointerMove(event: PointerEvent) {
    if (!pointers.current.has(event.pointerId) || !gesture.current) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const points = [...pointers.current.values()];
    const { pinchDistance, pinchScale } = gesture.current;
    if (points.length === 2 && pinchDistance && pinchScale) {
      zoomTo((pinchScale * distance(points[0]!, points[1]!)) / pinchDistance);
    } else if (zoom.scale > 1) {
      setZoom((current) => ({
        ...current,
        x: event.clientX - gesture.current!.startX,
        y: event.clientY - gesture.current!.startY,
      }));
    }
  }

  function onPointerUp(event: PointerEvent) {
    const start = gesture.current;
    pointers.current.delete(event.pointerId);
    if (pointers.current.size > 0) return;
    gesture.current = undefined;
    // Not zoomed, a horizontal swipe steps to the neighbouring photo.
    if (!start || start.pinchDistance) return;
    const dx = event.clientX - start.downX;
    const dy = event.clientY - start.downY;
    // Two taps of a finger in quick succession zoom in, or back out (a mouse has its double click).
    if (event.pointerType !== "mouse" && Math.hypot(dx, dy) < tapSlop) {
      const now = event.timeStamp;
      if (now - lastTap.current < doubleTapMs) {
        lastTap.current = 0;
        zoomTo(zoom.scale > 1 ? 1 : 2);
      } else lastTap.current = now;
      return;
    }
    if (zoom.scale > 1) return;
    if (Math.abs(dx) < swipeDistance || Math.abs(dx) < Math.abs(dy)) return;
    // The next photo is drawn in from the reading direction's end: swiped toward its start.
    const towardStart = readsRightToLeft() ? dx > 0 : dx < 0;
    if (towardStart && hasNext) onIndexChange(index + 1);
    if (!towardStart && hasPrevious) onIndexChange(index - 1);
  }

  const still = (
    <img
      key={`${photo.id}-${fullSize ? "full" : "preview"}`}
      src={fullSize ? photo.url : photo.preview_url}
      width={photo.width}
      height={photo.height}
      alt={mediaLabel(photo, index + 1, intl)}
      draggable={false}
      className={cn(
        "absolute inset-0 m-auto max-h-full max-w-full object-contain",
        zoom.scale > 1 ? "cursor-grab" : "cursor-zoom-in",
      )}
      style={{ width: "auto", height: "auto", transform: `translate(${zoom.x}px, ${zoom.y}px) scale(${zoom.scale})` }}
    />
  );

  return (
    <div
      ref={root}
      tabIndex={-1}
      className="fixed inset-0 z-50 flex flex-col bg-black text-white outline-none"
      role="dialog"
      aria-modal="true"
      aria-label={intl.formatMessage({ id: "viewer.label" }, { title: memory.title })}
    >
      <header className="flex items-center justify-between gap-2 px-3 py-2">
        <p className="min-w-0 truncate text-sm">
          <bdi className="font-medium">{memory.title}</bdi>
          <span className="ms-3 text-white/70 tabular-nums" aria-live="polite">
            {intl.formatMessage({ id: "viewer.position" }, { number: index + 1, total: photos.length })}
          </span>
        </p>
        <div className="flex shrink-0 items-center gap-1">
          {zoomable && (
            <ViewerButton
              label={
                fullSize ? intl.formatMessage({ id: "viewer.fullSizeShown" }) : intl.formatMessage({ id: "viewer.fullSize" })
              }
              disabled={fullSize}
              onClick={() => setFullSize(true)}
            >
              <MaximizeIcon aria-hidden="true" />
            </ViewerButton>
          )}
          <CoverButton memory={memory} photoId={photo.id} />
          <Button asChild variant="ghost" size="icon" className="text-white hover:bg-white/15 hover:text-white">
            <a
              href={download.url}
              download={downloadName(memory.title, index + 1, download.contentType)}
              aria-label={intl.formatMessage({ id: "viewer.download" })}
              title={intl.formatMessage({ id: "viewer.download" })}
            >
              <DownloadIcon aria-hidden="true" />
            </a>
          </Button>
          <ViewerButton label={intl.formatMessage({ id: "viewer.close" })} onClick={onClose}>
            <XIcon aria-hidden="true" />
          </ViewerButton>
        </div>
      </header>
      <div
        className="relative min-h-0 flex-1 touch-none overflow-hidden select-none"
        onWheel={onWheel}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onDoubleClick={() => zoomTo(zoom.scale > 1 ? 1 : 2)}
      >
        {isPlayableVideo(photo) ? (
          <VideoPlayer photo={photo} number={index + 1} className="absolute inset-0 m-auto max-h-full max-w-full bg-black" />
        ) : photo.kind === "live" ? (
          <LivePhoto photo={photo} number={index + 1} className="absolute inset-0">
            {still}
          </LivePhoto>
        ) : (
          still
        )}
        {photo.kind === "video" && photo.video_url === null && <MediaMark photo={photo} />}
        {hasPrevious && (
          <ViewerButton
            label={intl.formatMessage({ id: "viewer.previous" })}
            onClick={() => onIndexChange(index - 1)}
            className="absolute start-2 top-1/2 -translate-y-1/2 bg-black/40"
          >
            <ChevronLeftIcon aria-hidden="true" className="rtl:-scale-x-100" />
          </ViewerButton>
        )}
        {hasNext && (
          <ViewerButton
            label={intl.formatMessage({ id: "viewer.next" })}
            onClick={() => onIndexChange(index + 1)}
            className="absolute end-2 top-1/2 -translate-y-1/2 bg-black/40"
          >
            <ChevronRightIcon aria-hidden="true" className="rtl:-scale-x-100" />
          </ViewerButton>
        )}
      </div>
      <CaptionBar key={photo.id} photoId={photo.id} caption={photo.caption ?? null} />
    </div>
  );
}

/**
 * "Make this the cover" (ADR 0062): the photo leads the memory's page. On the cover itself it says
 * "Cover photo", pressed; the first photo is the cover until another is chosen.
 */
function CoverButton({ memory, photoId }: { memory: Memory; photoId: string }) {
  const intl = useIntl();
  const { cover } = usePhotoDetails();
  const current = (memory.cover_photo_id ?? memory.photos[0]?.id) === photoId;
  return (
    <ViewerButton
      label={intl.formatMessage({ id: current ? "viewer.cover.current" : "viewer.cover.set" })}
      pressed={current}
      disabled={cover.isPending}
      onClick={() => {
        if (current) return;
        cover.mutate(
          { memoryId: memory.id, photoId },
          { onError: () => notify.error(intl.formatMessage({ id: "viewer.saveFailed" })) },
        );
      }}
    >
      <StarIcon aria-hidden="true" className={cn(current && "fill-current")} />
    </ViewerButton>
  );
}

/** The photo's caption under it, and the way to add, change or remove it (emptied, it is removed). */
function CaptionBar({ photoId, caption }: { photoId: string; caption: string | null }) {
  const intl = useIntl();
  const { caption: save } = usePhotoDetails();
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(caption ?? "");
  const max = PhotoLimits.captionMaxLength;
  const tooLong = text.trim().length > max;
  const fieldId = `caption-${photoId}`;
  const ruleId = `caption-rule-${photoId}`;

  if (!editing) {
    return (
      <div className="flex items-start justify-center gap-2 px-3 py-2 text-sm">
        {caption && (
          <p dir="auto" className="max-w-prose break-words whitespace-pre-wrap text-white/90">
            {caption}
          </p>
        )}
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="shrink-0 text-white/80 hover:bg-white/15 hover:text-white"
          onClick={() => setEditing(true)}
        >
          <PencilIcon aria-hidden="true" />
          {intl.formatMessage({ id: caption ? "viewer.caption.edit" : "viewer.caption.add" })}
        </Button>
      </div>
    );
  }
  return (
    <form
      className="mx-auto flex w-full max-w-prose flex-col gap-2 px-3 py-2 text-sm"
      onSubmit={(event) => {
        event.preventDefault();
        if (tooLong) return;
        save.mutate(
          { photoId, caption: text.trim() === "" ? null : text.trim() },
          {
            onSuccess: () => setEditing(false),
            onError: () => notify.error(intl.formatMessage({ id: "viewer.saveFailed" })),
          },
        );
      }}
    >
      <label htmlFor={fieldId} className="font-medium">
        {intl.formatMessage({ id: "viewer.caption.label" })}
      </label>
      <textarea
        id={fieldId}
        dir="auto"
        rows={2}
        autoFocus
        value={text}
        aria-invalid={tooLong || undefined}
        aria-describedby={tooLong ? ruleId : undefined}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Escape") {
            // Escape leaves the field, not the viewer.
            event.stopPropagation();
            event.nativeEvent.stopImmediatePropagation();
            setEditing(false);
          }
        }}
        className="rounded-md border border-white/30 bg-black p-2 text-white outline-none focus-visible:ring-[3px] focus-visible:ring-white/60"
      />
      {tooLong && (
        <p id={ruleId} className="text-red-300">
          {intl.formatMessage({ id: "viewer.caption.tooLong" }, { max })}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button
          type="button"
          variant="ghost"
          size="sm"
          className="text-white hover:bg-white/15 hover:text-white"
          onClick={() => setEditing(false)}
        >
          {intl.formatMessage({ id: "common.cancel" })}
        </Button>
        <Button type="submit" size="sm" disabled={save.isPending}>
          {intl.formatMessage({ id: "viewer.caption.save" })}
        </Button>
      </div>
    </form>
  );
}

function ViewerButton({
  label,
  onClick,
  disabled = false,
  pressed,
  className,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Button
      type="button"
      variant="ghost"
      size="icon"
      aria-label={label}
      title={label}
      disabled={disabled}
      aria-pressed={pressed}
      onClick={onClick}
      onPointerDown={(event) => event.stopPropagation()}
      className={cn("rounded-full text-white hover:bg-white/15 hover:text-white focus-visible:ring-white/60", className)}
    >
      {children}
    </Button>
  );
}

/** Whether the page is laid out right to left (`<html dir="rtl">`, set with the language). */
function readsRightToLeft(): boolean {
  return document.documentElement.dir === "rtl";
}

function distance(a: { x: number; y: number }, b: { x: number; y: number }): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}
