import type { Photo } from "@memory-box/contract";

/**
 * The home grid's limits and shapes, used by the cards and by the first screen's script, which
 * asks for the first cards' photos early (ADR 0026, 0039).
 */

/** Cards whose photos are on a desktop's first screen (two rows of three): fetched at once, not lazily. */
export const firstScreenCards = 6;

/** A card shows at most this many photos; the last one shown carries "+N more" when there are more. */
export const cardPhotoLimit = 4;

/** The filter offers the most used tags only; the rest are counted in a "+N more" badge. */
export const tagFilterLimit = 5;

/** A lone photo keeps its own shape between these ratios (width ÷ height); beyond, it is letterboxed, never cropped to a sliver. */
const loneRatio = { min: 3 / 4, max: 21 / 9 };

/** A card's lone photo: the shape its box takes, and whether the photo fills it (else it is letterboxed). */
export function lonePhotoShape(photo: Pick<Photo, "width" | "height">): { ratio: number; fills: boolean } {
  const ratio = photo.width / Math.max(1, photo.height);
  const shown = Math.min(loneRatio.max, Math.max(loneRatio.min, ratio));
  return { ratio: shown, fills: shown === ratio };
}
