import type { Photo } from "@memory-box/contract";

/** Characters no file system takes in a name (Windows' set, which covers the others), and controls. */
// eslint-disable-next-line no-control-regex
const unsafe = /[<>:"/\\|?*\u0000-\u001f\u007f]/g;
/** Names Windows keeps for devices, whatever the extension. */
const reserved = /^(con|prn|aux|nul|com\d|lpt\d)$/i;
const maxStemLength = 120;

/** The extension a file of this type is saved with. */
function extensionOf(contentType: string): string {
  const known: Record<string, string> = {
    "image/jpeg": "jpg",
    "image/png": "png",
    "image/webp": "webp",
    "image/avif": "avif",
    "image/gif": "gif",
    "image/heic": "heic",
    "video/mp4": "mp4",
    "video/webm": "webm",
    "video/quicktime": "mov",
  };
  return known[contentType.split(";")[0]!.trim().toLowerCase()] ?? "bin";
}

/**
 * The name "Download full size" saves a photo under (issue #34): the memory's title and the photo's
 * number, "Picnic by the lake - 3.jpg". Any script is kept (「湖畔のピクニック - 3.jpg」); what a file system
 * refuses becomes a space, runs of spaces one, and a name of nothing but dots or a device's becomes "Memory".
 */
export function downloadName(title: string, number: number, contentType: string): string {
  let stem = title.normalize("NFC").replace(unsafe, " ").replace(/\s+/g, " ").trim();
  stem = stem.replace(/^\.+|\.+$/g, "").trim();
  if ([...stem].length > maxStemLength) stem = [...stem].slice(0, maxStemLength).join("").trim();
  if (stem === "" || reserved.test(stem)) stem = "Memory";
  return `${stem} - ${number}.${extensionOf(contentType)}`;
}

/** What the download button fetches: a video's web copy, else the full-size copy. */
export function downloadSource(photo: Photo): { url: string; contentType: string } {
  if (photo.kind === "video" && photo.video_url)
    return { url: photo.video_url, contentType: photo.video_content_type ?? "video/mp4" };
  return { url: photo.url, contentType: photo.content_type };
}
