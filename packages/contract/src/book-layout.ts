/**
 * How memories are laid out as a printed book: the web app's `/book` (ADR 0069) and the archive's
 * print view of a year (ADR 0070) share these, so a year prints the same from either. Plain values
 * and functions, no schema: the book's screen and the archive's pages import them without zod.
 */

/**
 * The page's margins: wider on the binding side (left on a right-hand page, right on a left-hand
 * one), where a bound book's pages curve away; the foot keeps room for the page number.
 */
export const bookMargins = { top: "18mm", bottom: "22mm", binding: "25mm", outside: "15mm" } as const;

/** The photos a memory's page shows at most. */
export const bookPhotosPerMemory = 4;

/**
 * The share of a page's height (inside its margins) each photo takes: one alone, each of two side by
 * side, each of three or four in two rows.
 */
export const bookPhotoHeights = { alone: 0.6, two: 0.4, more: 0.3 } as const;

/** A memory's photos for its page: the cover first (else the first), then the others in order, at most `max`. */
export function bookPhotos<P extends { id: string }>(
  memory: { photos: readonly P[]; cover_photo_id?: string | null },
  max = bookPhotosPerMemory,
): P[] {
  const cover = memory.photos.find((photo) => photo.id === memory.cover_photo_id) ?? memory.photos[0];
  if (!cover) return [];
  return [cover, ...memory.photos.filter((photo) => photo !== cover)].slice(0, max);
}

/**
 * The `@page` rules of a book: its paper (`size`; without one, the printer's), the mirrored binding
 * margins, and the page number at the foot of every page but the cover's, styled by `numberStyle`.
 */
export function bookPageRules(size: { width: string; height: string } | undefined, numberStyle: string): string {
  const { top, bottom, binding, outside } = bookMargins;
  return `@page {
${size ? `  size: ${size.width} ${size.height};\n` : ""}  margin: ${top} ${outside} ${bottom} ${binding};
  @bottom-center { content: counter(page); ${numberStyle} }
}
@page :left { margin-left: ${outside}; margin-right: ${binding}; }
@page :right { margin-left: ${binding}; margin-right: ${outside}; }
@page :first { @bottom-center { content: none; } }`;
}

/** Who wrote a book's memories, by their names, most memories first, then alphabetically (the cover's "Ann and Ben"). */
export function bookAuthorNames(names: readonly (string | null | undefined)[]): string[] {
  const counts = new Map<string, number>();
  for (const each of names) {
    const name = each?.trim();
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name]) => name);
}
