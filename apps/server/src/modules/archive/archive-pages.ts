import { defaultLocale } from "@memory-box/messages";
import { serverMessages, type ServerMessages } from "@memory-box/messages/server";
import type { ArchiveMemory, ArchivePhoto } from "./archive-format";
import { memoryPage } from "./archive-format";

// The archive's pages: plain HTML that any browser opens from the unpacked folder, years from
// now, without Memory Box. Everything members wrote goes through `escape`. Their own words come
// from the catalogue's export.json, in the exporting member's language (English unless given).

const english = (): ServerMessages => serverMessages(defaultLocale);

/** `<html lang dir>` of the pages' language. */
function htmlStart(words: ServerMessages): string {
  return `<html lang="${words.locale}" dir="${words.direction}">`;
}

const style = `body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.5;color:#1c1917}
a{color:#0f766e}ul{padding-left:1.2rem}.meta{color:#57534e}.tags span{display:inline-block;margin:0 .4rem .4rem 0;padding:0 .5rem;border:1px solid #d6d3d1;border-radius:999px}
img{max-width:100%;height:auto;margin:.5rem 0;border-radius:.5rem}pre{white-space:pre-wrap;font:inherit}`;

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

/** Added to the style of pages that hold a video or a Live Photo (a page of photos is as it was before videos). */
const videoStyle = `
video{display:block;max-width:100%;height:auto;margin:.5rem 0;border-radius:.5rem;background:#1c1917}figure{margin:.5rem 0}figcaption{color:#57534e}`;

function page(words: ServerMessages, title: string, body: string, extraStyle = ""): string {
  return `<!doctype html>
${htmlStart(words)}<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><style>${style}${extraStyle}</style></head>
<body>
${body}
</body></html>
`;
}

function when(memory: ArchiveMemory): string {
  return memory.memory_date ?? memory.created_at.slice(0, 10);
}

/** One memory: title, date, author, description, tags and every photo, linked relatively. */
export function renderMemoryPage(memory: ArchiveMemory, words: ServerMessages = english()): string {
  const tags = memory.tags.length
    ? `<p class="tags">${memory.tags.map((tag) => `<span>${escape(tag)}</span>`).join("")}</p>`
    : "";
  const photos = memory.photos.map((photo) => media(photo, words)).join("\n");
  const moving = memory.photos.some((photo) => photo.kind === "video" || photo.kind === "live");
  return page(
    words,
    memory.title,
    `<p><a href="../index.html">${escape(words.format("export.allMemories"))}</a></p>
<h1>${escape(memory.title)}</h1>
<p class="meta">${escape(when(memory))} · ${escape(memory.display_name)}</p>
${placeLine(memory, words)}${memory.content ? `<pre>${escape(memory.content)}</pre>` : ""}
${tags}
${photos}
${reactionsLine(memory)}${commentsList(memory, words)}`,
    moving ? videoStyle : "",
  );
}

/**
 * "Where: Sintra, Portugal (38.8029, -9.3817)" in the pages' language, the country named by
 * `Intl.DisplayNames`; nothing without a place. No map and no link to one: the page opens offline
 * and sends the place nowhere.
 */
function placeLine(memory: ArchiveMemory, words: ServerMessages): string {
  const place = memory.place;
  if (!place) return "";
  let country: string | undefined;
  try {
    country = place.country_code
      ? new Intl.DisplayNames([words.locale], { type: "region", fallback: "none" }).of(place.country_code)
      : undefined;
  } catch {
    country = undefined;
  }
  const where =
    country && country !== place.name
      ? words.format("export.placeInCountry", { place: place.name, country })
      : words.format("export.place", { place: place.name });
  const point = `${place.latitude.toFixed(4)}, ${place.longitude.toFixed(4)}`;
  return `<p class="place">${escape(where)} <span class="meta">(${escape(point)})</span></p>
`;
}

/**
 * One photo, video or Live Photo of a memory's page, its files linked relatively. A video plays
 * in the page from its original, its poster shown until then; a browser that cannot play its kind
 * of file (an iPhone's HEVC in some) still offers the file to open. A Live Photo shows its still,
 * and its motion plays under it.
 */
function media(photo: ArchivePhoto, words: ServerMessages): string {
  const file = `../${escape(photo.file)}`;
  if (photo.kind === "video") {
    const poster = photo.poster === undefined ? "" : ` poster="../${escape(photo.poster)}"`;
    const duration = clock(photo.duration_ms);
    const open = escape(
      duration === "" ? words.format("export.openVideo") : words.format("export.openVideoWithDuration", { duration }),
    );
    return `<figure class="video"><video controls preload="metadata" src="${file}"${poster}><a href="${file}">${open}</a></video><figcaption><a href="${file}">${open}</a></figcaption></figure>`;
  }
  const still = `<a href="${file}"><img src="${file}" alt="" loading="lazy"></a>`;
  if (photo.kind === "live" && photo.motion !== undefined) {
    const motion = `../${escape(photo.motion.file)}`;
    return `<figure class="live">${still}<figcaption>${escape(words.format("export.livePhoto"))}</figcaption><video controls preload="metadata" src="${motion}" poster="${file}"><a href="${motion}">${escape(words.format("export.openMotion"))}</a></video></figure>`;
  }
  return still;
}

/** A length as players show it: 0:42, 12:05, 1:02:03; nothing when unknown. */
function clock(milliseconds: number | undefined): string {
  if (milliseconds === undefined) return "";
  const seconds = Math.round(milliseconds / 1000);
  const [h, m, s] = [Math.floor(seconds / 3600), Math.floor((seconds % 3600) / 60), seconds % 60];
  const two = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** "❤️ 2 · 🎉 1", or nothing. */
function reactionsLine(memory: ArchiveMemory): string {
  const counts = new Map<string, number>();
  for (const reaction of memory.reactions ?? []) counts.set(reaction.emoji, (counts.get(reaction.emoji) ?? 0) + 1);
  if (counts.size === 0) return "";
  return `<p class="reactions">${[...counts].map(([emoji, count]) => `${escape(emoji)} ${count}`).join(" · ")}</p>\n`;
}

/** The comments, oldest first, each with its author and day, or nothing. */
function commentsList(memory: ArchiveMemory, words: ServerMessages): string {
  const comments = memory.comments ?? [];
  if (comments.length === 0) return "";
  const items = comments.map(
    (comment) =>
      `<li><p class="meta">${escape(comment.display_name)} · ${escape(comment.created_at.slice(0, 10))}</p><pre>${escape(comment.body)}</pre></li>`,
  );
  return `<h2>${escape(words.format("export.comments"))}</h2>\n<ul class="comments">\n${items.join("\n")}\n</ul>\n`;
}

/** The first part of index.html: the archive's title and the start of its list. */
export function renderIndexStart(exportedAt: string, count: number, words: ServerMessages = english()): string {
  const title = escape(words.format("export.title"));
  return `<!doctype html>
${htmlStart(words)}<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title><style>${style}</style></head>
<body>
<h1>${title}</h1>
<p class="meta">${escape(words.format("export.summary", { count, exportedAt }))}</p>
<ul>
`;
}

/** One line of the index's list. */
export function renderIndexEntry(memory: ArchiveMemory): string {
  return `<li><a href="${memoryPage(memory.id)}">${escape(memory.title)}</a> <span class="meta">${escape(when(memory))}</span></li>\n`;
}

export const indexEnd = "</ul>\n</body></html>\n";
