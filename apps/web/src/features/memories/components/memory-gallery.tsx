import { useLayoutEffect, useRef, useState, type MouseEvent } from "react";
import { useNavigate, useSearchParams } from "react-router";
import type { Memory, Photo } from "@memory-box/contract";

import { paths } from "@/config/paths";
import { MediaMark } from "@/features/memories/components/media-mark";
import { PhotoImage } from "@/features/memories/components/photo-image";
import { PhotoViewer } from "@/features/memories/components/photo-viewer";
import { LivePhoto, VideoPlayer } from "@/features/memories/components/video-player";
import { isPlayableVideo, mediaLabel } from "@/features/memories/utils/media";
import {
  aspectRatio,
  coverFirst,
  galleryOptions,
  justifiedLayout,
  type GalleryTile,
} from "@/features/memories/utils/justified-layout";

/** The width laid out before the gallery is measured (the page's column at its widest). */
const unmeasuredWidth = 864;

/** The search parameter naming the photo open in the lightbox: Back closes it, a link to it opens it. */
const photoParam = "photo";

/**
 * The memory's photos on its page (issue #34): the cover first and large, the others in justified
 * rows (`justifiedLayout`). A photo opens in the lightbox over the page, its id in the address
 * (`?photo=<id>`) as a new history entry, so the browser's Back closes it and the address can be
 * shared; stepping through replaces the entry. Each tile stays a link to the photo's own viewer
 * page, so a middle click still opens it in a new tab. A video plays in its tile (one still being
 * prepared shows its poster and marks); a Live Photo's motion plays over its tile on hover or press, as before.
 */
export function MemoryGallery({ memory }: { memory: Memory }) {
  const frame = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [searchParams, setSearchParams] = useSearchParams();
  const navigate = useNavigate();
  // Whether this page pushed the lightbox's entry (then closing is Back), or it came with the address.
  const pushed = useRef(false);

  useLayoutEffect(() => {
    const element = frame.current;
    if (!element) return;
    setWidth(element.clientWidth);
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const photos = memory.photos;
  const openId = searchParams.get(photoParam);
  const openIndex = openId === null ? -1 : photos.findIndex((photo) => photo.id === openId);
  // The chosen cover leads, the others follow in the memory's order; each keeps its number.
  const order = coverFirst(photos, memory.cover_photo_id ?? null);
  const layout = justifiedLayout(
    order.map((index) => aspectRatio(photos[index]!)),
    galleryOptions(width || unmeasuredWidth),
  );

  function withPhoto(id: string | undefined) {
    const next = new URLSearchParams(searchParams);
    if (id === undefined) next.delete(photoParam);
    else next.set(photoParam, id);
    return next;
  }

  function open(event: MouseEvent, index: number) {
    // A click with a modifier keeps the link's own meaning (a new tab, a new window).
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    pushed.current = true;
    setSearchParams(withPhoto(photos[index]!.id));
  }

  function close() {
    if (pushed.current) {
      pushed.current = false;
      void navigate(-1);
    } else {
      setSearchParams(withPhoto(undefined), { replace: true });
    }
  }

  const tile = (placed: GalleryTile, cover: boolean) => {
    const index = order[placed.index]!;
    return (
      <GalleryItem
        key={photos[index]!.id}
        memoryId={memory.id}
        photo={photos[index]!}
        number={index + 1}
        placed={placed}
        cover={cover}
        onOpen={(event) => open(event, index)}
      />
    );
  };

  return (
    <div ref={frame} className="flex flex-col gap-1" data-testid="memory-gallery">
      {layout.cover && <div className="flex justify-center">{tile(layout.cover, true)}</div>}
      {layout.rows.map((row) => (
        <div key={photos[order[row.tiles[0]!.index]!]!.id} className="flex gap-1">
          {row.tiles.map((placed) => tile(placed, false))}
        </div>
      ))}
      {openIndex >= 0 && (
        <PhotoViewer
          memory={memory}
          index={openIndex}
          onIndexChange={(next) => setSearchParams(withPhoto(photos[next]!.id), { replace: true })}
          onClose={close}
        />
      )}
    </div>
  );
}

function GalleryItem({
  memoryId,
  photo,
  number,
  placed,
  cover,
  onOpen,
}: {
  memoryId: string;
  photo: Photo;
  number: number;
  placed: GalleryTile;
  cover: boolean;
  onOpen: (event: MouseEvent) => void;
}) {
  const size = { width: placed.width, height: placed.height };
  const still = (
    <a
      href={paths.photo(memoryId, number)}
      onClick={onOpen}
      className="relative block size-full overflow-hidden rounded-md bg-muted outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      <PhotoImage
        photo={photo}
        // The cover and wide tiles from the ~1600 px preview; the small ones from the ~400 px thumbnail.
        size={cover || placed.width > 320 ? "preview" : "thumbnail"}
        alt={mediaLabel(photo, number)}
        className="size-full object-cover transition-opacity hover:opacity-90"
        {...(cover ? { loading: "eager" as const } : {})}
      />
      {photo.kind === "video" && <MediaMark photo={photo} />}
    </a>
  );
  return (
    <div className="relative shrink-0 grow-0" style={size} data-cover={cover || undefined}>
      {isPlayableVideo(photo) ? (
        // A video plays in place, as it always has; the lightbox steps through it too.
        <VideoPlayer photo={photo} number={number} className="size-full rounded-md bg-black object-contain" />
      ) : photo.kind === "live" ? (
        <LivePhoto photo={photo} number={number} className="size-full" motionClassName="rounded-md object-cover">
          {still}
        </LivePhoto>
      ) : (
        still
      )}
    </div>
  );
}
