import type { Memory, Photo } from "@memory-box/contract";
import { rgbaToThumbHash } from "thumbhash";

let sequence = 0;

/** A UUID-shaped id, unique per call within a test run. */
export function fakeId(): string {
  sequence += 1;
  return `00000000-0000-4000-8000-${sequence.toString(16).padStart(12, "0")}`;
}

/** A real ThumbHash (of a 4×4 warm-grey square), base64 as the API sends it. */
export const fakePlaceholder = (() => {
  const rgba = Array.from({ length: 4 * 4 }, () => [200, 150, 120, 255]).flat();
  return btoa(String.fromCharCode(...rgbaToThumbHash(4, 4, rgba)));
})();

export function fakePhoto(overrides: Partial<Photo> = {}): Photo {
  const id = overrides.id ?? fakeId();
  return {
    id,
    url: `/storage/v1/object/authenticated/memory-photos/${id}.display.jpg`,
    preview_url: `/storage/v1/object/authenticated/memory-photos/${id}.preview.webp`,
    thumbnail_url: `/storage/v1/object/authenticated/memory-photos/${id}.thumb.webp`,
    content_type: "image/jpeg",
    width: 1200,
    height: 800,
    taken_at: null,
    location: null,
    placeholder: fakePlaceholder,
    kind: "photo",
    duration_seconds: null,
    video_url: null,
    video_content_type: null,
    status: "ready",
    error_code: null,
    ...overrides,
  };
}

export function fakeMemory(overrides: Partial<Memory> = {}): Memory {
  const photos = overrides.photos ?? [];
  return {
    id: fakeId(),
    title: "Picnic by the lake",
    content: null,
    memory_date: null,
    tags: null,
    photo_urls: photos.length > 0 ? photos.map((photo) => photo.url) : null,
    photos,
    place: null,
    user_id: "00000000-0000-4000-8000-000000000001",
    profiles: { display_name: "Alex" },
    updated_by: null,
    updated_by_profile: null,
    created_at: "2024-06-01T10:00:00.000Z",
    updated_at: "2024-06-01T10:00:00.000Z",
    version: 1,
    comment_count: 0,
    reactions: [],
    ...overrides,
  };
}
