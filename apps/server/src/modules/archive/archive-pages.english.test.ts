import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import type { ArchiveMemory } from "./archive-format";
import { indexEnd, renderIndexEntry, renderIndexStart, renderMemoryPage } from "./archive-pages";

/**
 * The English of the export's pages, byte for byte, as it was before the texts moved into the
 * catalogue; the one change is the page's direction, which `<html>` now states beside its language.
 */
const memory: ArchiveMemory = {
  id: "0b6c5c2e-6b1f-4f59-9c1e-9d8f6f0c1a11",
  title: "Our <first> day & night",
  content: "We walked to the lake.\nIt rained.",
  memory_date: "2024-06-01",
  tags: ["lake", "rain"],
  user_id: "5f0f8f3e-2f4b-4a4e-8f7a-1c2d3e4f5a6b",
  display_name: "Ann",
  created_at: "2024-06-02T10:00:00.000Z",
  updated_at: "2024-06-02T10:00:00.000Z",
  photos: [
    {
      id: "7d9f7b7e-1b2c-4d3e-8f9a-0b1c2d3e4f5a",
      position: 0,
      taken_at: null,
      width: 10,
      height: 10,
      content_type: "image/jpeg",
      bytes: 100,
      file: "photos/7d9f7b7e-1b2c-4d3e-8f9a-0b1c2d3e4f5a.jpg",
    },
  ],
  comments: [
    {
      id: "8a9b0c1d-2e3f-4a5b-8c7d-9e0f1a2b3c4d",
      user_id: null,
      display_name: "Unknown User",
      body: "Lovely!",
      created_at: "2024-06-03T08:00:00.000Z",
      updated_at: "2024-06-03T08:00:00.000Z",
    },
  ],
  reactions: [
    { emoji: "❤️", user_id: "5f0f8f3e-2f4b-4a4e-8f7a-1c2d3e4f5a6b" },
    { emoji: "🎉", user_id: "5f0f8f3e-2f4b-4a4e-8f7a-1c2d3e4f5a6b" },
  ],
};

describe("the English export pages", () => {
  it("are byte-identical to the pages written before the catalogue", async () => {
    const pages = {
      memory: renderMemoryPage(memory),
      bare: renderMemoryPage({ ...memory, content: null, memory_date: null, tags: [], photos: [], comments: [], reactions: [] }),
      indexOne: renderIndexStart("2026-11-27T16:00:00.000Z", 1),
      indexMany: renderIndexStart("2026-11-27T16:00:00.000Z", 2),
      entry: renderIndexEntry(memory),
      end: indexEnd,
    };
    const before = await readFile(new URL("./__snapshots__/english-pages.json", import.meta.url), "utf8");
    const now = JSON.stringify(pages, null, 2) + "\n";
    expect(now.split('<html lang=\\"en\\" dir=\\"ltr\\">')).toHaveLength(5);
    expect(now.replaceAll('<html lang=\\"en\\" dir=\\"ltr\\">', '<html lang=\\"en\\">')).toBe(before);
  });
});
