import { thumbHashToDataURL } from "thumbhash";

const cache = new Map<string, string | null>();

/**
 * A photo's ThumbHash (base64, as the API sends it) → a tiny PNG data URL to paint while the
 * real image loads; null when the hash is missing or cannot be decoded. Decoded once per hash.
 */
export function thumbHashDataUrl(placeholder: string | null | undefined): string | null {
  if (!placeholder) return null;
  const cached = cache.get(placeholder);
  if (cached !== undefined) return cached;
  let url: string | null;
  try {
    const bytes = Uint8Array.from(atob(placeholder), (char) => char.charCodeAt(0));
    url = thumbHashToDataURL(bytes);
  } catch {
    url = null;
  }
  if (cache.size > 500) cache.clear();
  cache.set(placeholder, url);
  return url;
}
