import type { Photo } from "@memory-box/contract";

import { MediaMark } from "@/features/memories/components/media-mark";
import { PhotoImage } from "@/features/memories/components/photo-image";
import { cardPhotoLimit, lonePhotoShape } from "@/features/memories/utils/card-layout";
import { mediaLabel } from "@/features/memories/utils/media";
import { cn } from "@/lib/utils";
import { activeIntl } from "@/lib/intl";

/**
 * A card's photo preview, edge to edge at the card's top: a lone photo across the card's width in
 * its own shape; otherwise the first four thumbnails in a two-column grid, square-cropped, each
 * painted with its ThumbHash until loaded. With more photos the fourth carries "+N more". A video
 * shows its poster with a play mark and its duration, a Live Photo its still marked "LIVE".
 */
export function MemoryPhotosGrid({ photos, className, eager = false }: { photos: Photo[]; className?: string; eager?: boolean }) {
  if (photos.length === 0) return null;
  if (photos.length === 1) {
    const photo = photos[0]!;
    const shape = lonePhotoShape(photo);
    return (
      <div className={cn("relative overflow-hidden bg-muted", className)} style={{ aspectRatio: shape.ratio }}>
        <PhotoImage
          photo={photo}
          size="thumbnail"
          alt={mediaLabel(photo, 1)}
          className={cn("size-full", shape.fills ? "object-cover" : "object-contain")}
          {...(eager ? { loading: "eager" } : {})}
        />
        <MediaMark photo={photo} />
      </div>
    );
  }
  const shown = photos.slice(0, cardPhotoLimit);
  const more = photos.length - shown.length;

  return (
    <div className={cn("grid grid-cols-2 gap-0.5 overflow-hidden", className)}>
      {shown.map((photo, index) => (
        <div key={photo.id} className="relative aspect-square overflow-hidden">
          <PhotoImage
            photo={photo}
            size="thumbnail"
            alt={mediaLabel(photo, index + 1)}
            className="size-full object-cover"
            {...(eager ? { loading: "eager" } : {})}
          />
          <MediaMark photo={photo} />
          {more > 0 && index === shown.length - 1 && (
            <div className="absolute inset-0 flex items-center justify-center bg-black/60 text-lg font-semibold text-white">
              {activeIntl().formatMessage({ id: "memory.photos.more" }, { more })}
            </div>
          )}
        </div>
      ))}
    </div>
  );
}
