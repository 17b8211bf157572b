/**
 * The memory page's gallery (issue #34), as plain arithmetic so it can be tested without a browser:
 * the cover alone and large on top, then the other photos in justified rows — every row as wide as
 * the gallery, its photos all of one height and each as wide as its own shape asks, so nothing is
 * cropped and no hole is left. The last row keeps the target height and is not stretched.
 *
 * Extreme shapes (a 10:1 panorama, a screenshot of a long chat) would make a thin strip or a tower:
 * their ratio is held inside `minRatio…maxRatio` (and a lone photo never wider than the gallery at
 * `minRowHeight`), and the tile shows the middle of the photo; the lightbox still shows it whole.
 */

export interface GalleryOptions {
  /** The gallery's inner width, px. */
  width: number;
  /** The height rows aim for, px. */
  targetRowHeight: number;
  /** No row is lower than this, px ("no thin strips"). */
  minRowHeight: number;
  /** Nor higher than this, px. */
  maxRowHeight: number;
  /** The space between tiles, px. */
  gap: number;
  /** The cover's tallest height, px. */
  coverMaxHeight: number;
  minRatio: number;
  maxRatio: number;
}

export interface GalleryTile {
  /** Index in the list given. */
  index: number;
  width: number;
  height: number;
}

export interface GalleryRow {
  height: number;
  tiles: GalleryTile[];
}

export interface GalleryLayout {
  /** The cover, centred on its own row; undefined without photos. */
  cover: GalleryTile | undefined;
  rows: GalleryRow[];
}

/** The gallery's sizes on a phone and on a wider screen. */
export function galleryOptions(width: number): GalleryOptions {
  const narrow = width < 640;
  return {
    width,
    targetRowHeight: narrow ? 140 : 220,
    minRowHeight: narrow ? 90 : 140,
    maxRowHeight: narrow ? 260 : 360,
    gap: 4,
    coverMaxHeight: narrow ? 420 : 560,
    minRatio: 1 / 3,
    maxRatio: 3,
  };
}

/** A photo's width ÷ height; a photo whose size is unknown (0) counts as square. */
export function aspectRatio(size: { width: number; height: number }): number {
  return size.width > 0 && size.height > 0 ? size.width / size.height : 1;
}

/**
 * Lays out `ratios` (width ÷ height, the cover's first): the cover as large as fits, the rest in
 * justified rows. Rows are closed greedily at the photo that brings their height nearest the target.
 */
export function justifiedLayout(ratios: readonly number[], options: GalleryOptions): GalleryLayout {
  const { width, gap, minRowHeight, maxRowHeight, targetRowHeight } = options;
  if (ratios.length === 0 || width <= 0) return { cover: undefined, rows: [] };

  const coverRatio = ratios[0]!;
  const coverWidth = Math.min(width, coverRatio * options.coverMaxHeight);
  const cover = { index: 0, width: coverWidth, height: coverWidth / coverRatio };

  // A lone tile may not be wider than the gallery at the lowest row height.
  const widest = Math.min(options.maxRatio, width / minRowHeight);
  const held = ratios.map((ratio) => Math.min(widest, Math.max(options.minRatio, ratio)));
  const naturalHeight = (from: number, to: number) => {
    let sum = 0;
    for (let i = from; i < to; i++) sum += held[i]!;
    return (width - gap * (to - from - 1)) / sum;
  };

  const rows: GalleryRow[] = [];
  let start = 1;
  while (start < ratios.length) {
    let end = start + 1;
    while (end < ratios.length && naturalHeight(start, end) > targetRowHeight) end++;
    const lastRow = end === ratios.length && naturalHeight(start, end) > targetRowHeight;
    if (lastRow) {
      // Not enough photos left to fill a row at the target height: they keep it, unstretched.
      rows.push(row(start, end, targetRowHeight, false));
      break;
    }
    // Closing one photo earlier may come nearer the target (compared as ratios: 2× and ½ are as far);
    // a height beyond the row's bounds costs more, for its photos must then be cropped.
    if (end - start > 1 && cost(naturalHeight(start, end - 1)) < cost(naturalHeight(start, end))) end--;
    const height = Math.min(maxRowHeight, Math.max(minRowHeight, naturalHeight(start, end)));
    rows.push(row(start, end, height, true));
    start = end;
  }
  return { cover, rows };

  function cost(natural: number): number {
    const held = Math.min(maxRowHeight, Math.max(minRowHeight, natural));
    return Math.abs(Math.log(held / targetRowHeight)) + 4 * Math.abs(Math.log(natural / held));
  }

  function row(from: number, to: number, height: number, fill: boolean): GalleryRow {
    const tiles: GalleryTile[] = [];
    for (let i = from; i < to; i++) tiles.push({ index: i, width: held[i]! * height, height });
    if (fill) {
      // Held to the row's bounds, the widths are scaled to fill the row exactly (a slight crop).
      const room = width - gap * (tiles.length - 1);
      const sum = tiles.reduce((total, tile) => total + tile.width, 0);
      for (const tile of tiles) tile.width = (tile.width * room) / sum;
    }
    return { height, tiles };
  }
}

/** The photos' indices with the cover's first (an unknown cover, or none: the memory's order). */
export function coverFirst(photos: readonly { id: string }[], coverId: string | null): number[] {
  const indices = photos.map((_, index) => index);
  const cover = coverId === null ? -1 : photos.findIndex((photo) => photo.id === coverId);
  return cover <= 0 ? indices : [cover, ...indices.filter((index) => index !== cover)];
}
