import type { FrameDisplay, FrameSlide } from "@memory-box/contract";

/** Minutes since midnight of "HH:MM". */
function minutesOf(time: string): number {
  const [hours, minutes] = time.split(":").map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/**
 * Whether the frame is dimmed at `now` (its local time): from `night.from` until `night.to`, a
 * schedule whose end is before its start spanning midnight ("22:00" to "07:00"). Never without one,
 * nor when both ends are the same minute.
 */
export function isNight(night: FrameDisplay["night"], now: Date = new Date()): boolean {
  if (!night) return false;
  const from = minutesOf(night.from);
  const to = minutesOf(night.to);
  const minute = now.getHours() * 60 + now.getMinutes();
  if (from === to) return false;
  return from < to ? minute >= from && minute < to : minute >= from || minute < to;
}

const isPortraitPhoto = (slide: FrameSlide | undefined) =>
  slide !== undefined && slide.kind !== "video" && slide.height > slide.width;

/**
 * The slide at `index` and what shows with it: on a landscape screen a portrait photo followed by
 * another portrait photo shows side by side with it (two slides at once); anything else alone.
 */
export function slidesAt(slides: readonly FrameSlide[], index: number, landscape: boolean): FrameSlide[] {
  if (slides.length === 0) return [];
  const first = slides[index % slides.length]!;
  const second = slides[(index + 1) % slides.length];
  if (landscape && slides.length > 1 && isPortraitPhoto(first) && isPortraitPhoto(second) && second!.photo_id !== first.photo_id)
    return [first, second!];
  return [first];
}

/**
 * Where the show goes on after a new list arrived: at the slide it was showing when that one is
 * still in it, else at the same place (wrapped).
 */
export function indexInNewList(slides: readonly FrameSlide[], showingPhotoId: string | undefined, index: number): number {
  if (slides.length === 0) return 0;
  const found = showingPhotoId === undefined ? -1 : slides.findIndex((slide) => slide.photo_id === showingPhotoId);
  return found >= 0 ? found : index % slides.length;
}
