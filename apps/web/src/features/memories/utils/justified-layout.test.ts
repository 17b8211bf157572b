import { describe, expect, it } from "vitest";

import { aspectRatio, coverFirst, galleryOptions, justifiedLayout } from "@/features/memories/utils/justified-layout";

const close = (a: number, b: number) => Math.abs(a - b) < 0.01;

function rowWidth(tiles: { width: number }[], gap: number) {
  return tiles.reduce((sum, tile) => sum + tile.width, 0) + gap * (tiles.length - 1);
}

describe("justifiedLayout", () => {
  it("puts the cover first, alone, in its own shape and no wider than the gallery", () => {
    const options = galleryOptions(1280);
    const landscape = justifiedLayout([3 / 2, 1, 1], options);
    expect(landscape.cover).toEqual({ index: 0, width: 840, height: 560 });
    const wide = justifiedLayout([4, 1], galleryOptions(375));
    expect(wide.cover!.width).toBe(375);
    expect(close(wide.cover!.height, 375 / 4)).toBe(true);
    expect(landscape.rows.flatMap((row) => row.tiles.map((tile) => tile.index))).toEqual([1, 2]);
  });

  it("fills every full row exactly, keeps each photo's shape and one height per row", () => {
    const ratios = [1.5, 1.5, 0.75, 1, 16 / 9, 0.5625, 4 / 3, 1.5, 0.75, 1, 1.5, 2, 0.8, 1.33, 1.5];
    for (const width of [375, 768, 1280]) {
      const options = galleryOptions(width);
      const { rows } = justifiedLayout(ratios, options);
      expect(rows.flatMap((row) => row.tiles.map((tile) => tile.index))).toEqual(ratios.slice(1).map((_, i) => i + 1));
      for (const [n, row] of rows.entries()) {
        for (const tile of row.tiles) {
          expect(tile.height).toBe(row.height);
          // Ordinary shapes are not cropped.
          expect(close(tile.width / tile.height, ratios[tile.index]!)).toBe(true);
        }
        if (n < rows.length - 1) expect(close(rowWidth(row.tiles, options.gap), width)).toBe(true);
      }
    }
  });

  it("never makes a row thinner or taller than its limits, whatever the shapes", () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let run = 0; run < 300; run++) {
      const ratios = Array.from({ length: 2 + Math.floor(random() * 30) }, () => 0.1 + random() * 9.9);
      for (const width of [320, 375, 1280]) {
        const options = galleryOptions(width);
        const { rows } = justifiedLayout(ratios, options);
        for (const [n, row] of rows.entries()) {
          expect(row.height).toBeGreaterThanOrEqual(options.minRowHeight);
          expect(row.height).toBeLessThanOrEqual(options.maxRowHeight);
          const used = rowWidth(row.tiles, options.gap);
          // No hole in a full row; the last one is never wider than the gallery.
          if (n < rows.length - 1) expect(close(used, width)).toBe(true);
          else expect(used).toBeLessThanOrEqual(width + 0.01);
          for (const tile of row.tiles) expect(tile.width).toBeGreaterThan(0);
        }
      }
    }
  });

  it("leaves the last row at the target height, not stretched", () => {
    const options = galleryOptions(1280);
    const { rows } = justifiedLayout([1, 1, 1], options);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.height).toBe(options.targetRowHeight);
    expect(rows[0]!.tiles.map((tile) => tile.width)).toEqual([220, 220]);
  });

  it("lays out nothing without photos or room", () => {
    expect(justifiedLayout([], galleryOptions(1280))).toEqual({ cover: undefined, rows: [] });
    expect(justifiedLayout([1], galleryOptions(0)).rows).toEqual([]);
  });

  it("counts a photo of unknown size as square", () => {
    expect(aspectRatio({ width: 0, height: 0 })).toBe(1);
    expect(aspectRatio({ width: 4000, height: 3000 })).toBeCloseTo(4 / 3);
  });

  it("puts the chosen cover first and keeps the others in order", () => {
    const photos = [{ id: "a" }, { id: "b" }, { id: "c" }];
    expect(coverFirst(photos, "c")).toEqual([2, 0, 1]);
    expect(coverFirst(photos, "a")).toEqual([0, 1, 2]);
    expect(coverFirst(photos, null)).toEqual([0, 1, 2]);
    expect(coverFirst(photos, "gone")).toEqual([0, 1, 2]);
  });

  it("crops a portrait before a panorama as little as it can, on a phone", () => {
    const options = galleryOptions(375);
    const { rows } = justifiedLayout([1, 0.6, 4, 1], options);
    const portrait = rows.flatMap((row) => row.tiles).find((tile) => tile.index === 1)!;
    // Alone at the row's highest it would be cropped to nearly twice its width; beside the panorama, barely.
    expect(portrait.width / portrait.height / 0.6).toBeLessThan(1.2);
  });
});
