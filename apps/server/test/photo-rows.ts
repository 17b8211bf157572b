import { randomUUID } from "node:crypto";
import type { PhotoRow } from "../src/db/schema";
import { stillColumns } from "../src/modules/photos/photos.service";

/**
 * A photo row as the upload pipeline would store it for `key` (original, preview, thumbnail and display copy
 * next to each other), for tests that write rows without uploading; `fields` override any column.
 */
export function photoRow(key: string, fields: Partial<PhotoRow> = {}): PhotoRow {
  // No caption unless asked for: tests of older migrations insert these rows into tables without the column.
  return photoRowWithout(key, fields) as PhotoRow;
}

function photoRowWithout(key: string, fields: Partial<PhotoRow>): Omit<PhotoRow, "caption"> & Partial<Pick<PhotoRow, "caption">> {
  return {
    id: randomUUID(),
    memory_id: null,
    position: null,
    owner_id: null,
    object_key: `${key}.jpg`,
    preview_key: `${key}.preview.webp`,
    thumbnail_key: `${key}.thumb.webp`,
    display_key: `${key}.display.jpg`,
    content_type: "image/jpeg",
    bytes: 1000,
    width: 40,
    height: 30,
    taken_at: null,
    placeholder: "AAAA",
    latitude: null,
    longitude: null,
    created_at: new Date().toISOString(),
    ...stillColumns,
    ...fields,
  };
}
