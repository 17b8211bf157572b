/** The most memories one `POST /api/v1/memories/batch` makes (the contract's `maxMemoriesPerBatch`, kept zod-free here). */
export const maxCaptureDays = 31;

/** A capture day and the photos taken on it, in the order they were chosen. */
export interface CaptureDay<T> {
  /** "2026-01-03". */
  date: string;
  photos: T[];
}

/** How chosen photos split by capture day (ADR 0063): the days in date order, and the photos without a date. */
export interface CaptureDays<T> {
  days: CaptureDay<T>[];
  undated: T[];
}

/**
 * Groups photos by the day of their capture time as the server read it (`taken_at`, the camera's
 * wall clock, the same day "photo date fills empty date" uses), oldest day first. Photos without
 * one are kept apart: they join the first day's memory.
 */
export function groupByCaptureDay<T extends { taken_at?: string | null }>(photos: readonly T[]): CaptureDays<T> {
  const byDay = new Map<string, T[]>();
  const undated: T[] = [];
  for (const photo of photos) {
    const date = /^\d{4}-\d{2}-\d{2}/.exec(photo.taken_at ?? "")?.[0];
    if (!date) {
      undated.push(photo);
      continue;
    }
    const day = byDay.get(date);
    if (day) day.push(photo);
    else byDay.set(date, [photo]);
  }
  const days = [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, dayPhotos]) => ({ date, photos: dayPhotos }));
  return { days, undated };
}

/** Whether to offer one memory per day: photos of 2 to `maxCaptureDays` days. */
export function offersOnePerDay<T>(grouped: CaptureDays<T>): boolean {
  return grouped.days.length >= 2 && grouped.days.length <= maxCaptureDays;
}

/** One new memory of a batch: its day's title and date, and its photos' ids. */
export interface CaptureDayItem {
  title: string;
  memory_date: string;
  photo_ids: string[];
}

/**
 * The batch's items (ADR 0063): one memory per day, oldest first, titled `titleOf(date)`, with its
 * photos in the order they were chosen; the photos without a capture date join the first day's.
 */
export function captureDayItems<T extends { id: string }>(
  grouped: CaptureDays<T>,
  titleOf: (date: string) => string,
): CaptureDayItem[] {
  return grouped.days.map((day, index) => ({
    title: titleOf(day.date),
    memory_date: day.date,
    photo_ids: [...day.photos, ...(index === 0 ? grouped.undated : [])].map((photo) => photo.id),
  }));
}
