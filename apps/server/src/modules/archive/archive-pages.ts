import { bookAuthorNames, bookPageRules, bookPhotoHeights, bookPhotos } from "@memory-box/contract/book-layout";
import { defaultLocale } from "@memory-box/messages";
import { serverMessages, type ServerMessages } from "@memory-box/messages/server";
import type { ArchiveMemory, ArchivePhoto } from "./archive-format";
import { memoryPage } from "./archive-format";

// The archive's pages (issue #35): plain HTML that any browser opens from the unpacked folder, years
// from now, without Memory Box, a server, a network or JavaScript. `index.html` lists the years;
// each year's page (`years/2024.html`, `years/undated.html`) its memories by month, newest first;
// each memory's page its photos, videos, place, comments and reactions. Everything members wrote
// goes through `escape`; the pages' own words come from the catalogue's export.json, in the
// exporting member's language (English unless given).

const english = (): ServerMessages => serverMessages(defaultLocale);

/**
 * The app's look: its design tokens (apps/web/src/index.css) for light and dark, as the device is
 * set. Written as plain colours per scheme, not `light-dark()`, so that an older browser still
 * reads the light ones; a test holds them to the web app's tokens.
 */
export const archiveColours = {
  light: {
    background: "oklch(0.982 0.008 80)",
    foreground: "oklch(0.25 0.02 45)",
    card: "oklch(0.995 0.004 85)",
    primary: "oklch(0.47 0.13 355)",
    "muted-foreground": "oklch(0.49 0.025 50)",
    border: "oklch(0.89 0.015 70)",
  },
  dark: {
    background: "oklch(0.19 0.012 50)",
    foreground: "oklch(0.94 0.012 80)",
    card: "oklch(0.23 0.014 50)",
    primary: "oklch(0.8 0.065 355)",
    "muted-foreground": "oklch(0.75 0.022 70)",
    border: "oklch(0.33 0.015 50)",
  },
} as const;

const colours = (scheme: keyof typeof archiveColours) =>
  Object.entries(archiveColours[scheme])
    .map(([name, value]) => `--${name}:${value}`)
    .join(";");

const style = `:root{color-scheme:light dark;${colours("light")}}
@media (prefers-color-scheme:dark){:root{${colours("dark")}}}
body{font-family:system-ui,sans-serif;max-width:48rem;margin:0 auto;padding:1.5rem 1rem 3rem;line-height:1.5;background:var(--background);color:var(--foreground)}
h1,h2,h3{font-family:ui-serif,Georgia,"Iowan Old Style","Palatino Linotype","Times New Roman",serif;line-height:1.2}
h1{font-size:2rem;margin:.5rem 0}h2{font-size:1.5rem;margin:2rem 0 .75rem}h3{font-size:1.125rem;margin:1.5rem 0 .5rem}
a{color:var(--primary)}.meta{color:var(--muted-foreground)}nav{margin-bottom:1rem}
.tags span{display:inline-block;margin:0 .4rem .4rem 0;padding:0 .5rem;border:1px solid var(--border);border-radius:999px}
img{max-width:100%;height:auto;border-radius:.5rem}figure{margin:.75rem 0}figcaption{color:var(--muted-foreground)}
pre{white-space:pre-wrap;font:inherit}
ul.entries,ul.years{list-style:none;padding:0;margin:0}
ul.entries li,ul.years li{display:flex;gap:.75rem;align-items:center;padding:.5rem;margin:.5rem 0;background:var(--card);border:1px solid var(--border);border-radius:.75rem}
ul.entries img{width:4rem;height:4rem;object-fit:cover;flex:none;border-radius:.5rem}
ul.entries .title,ul.years a{font-weight:600}
ul.comments{padding-left:1.2rem}`;

/** Added to the style of pages that hold a video or a Live Photo. */
const videoStyle = `
video{display:block;max-width:100%;height:auto;margin:.5rem 0;border-radius:.5rem;background:#1c1917}`;

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function page(words: ServerMessages, title: string, body: string, extraStyle = ""): string {
  return `<!doctype html>
<html lang="${words.locale}" dir="${words.direction}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><style>${style}${extraStyle}</style></head>
<body><main>
${body}
</main></body></html>
`;
}

/** The page of a year's memories (`years/2024.html`), or of the undated ones (`years/undated.html`). */
export function yearPage(year: string | null): string {
  return `years/${year ?? "undated"}.html`;
}

/** A memory's year ("2024"), or null when it has no date. */
export function yearOf(memory: Pick<ArchiveMemory, "memory_date">): string | null {
  return memory.memory_date?.slice(0, 4) ?? null;
}

/** "1 June 2024" as the pages' language writes a day; a year below 100 as itself. */
function longDate(date: string, words: ServerMessages): string {
  return calendarFormat(words.locale, "day").format(calendarDay(date));
}

/** "June 2024" as the pages' language writes a month. */
function monthName(month: string, words: ServerMessages): string {
  return calendarFormat(words.locale, "month").format(calendarDay(`${month}-01`));
}

const calendarOptions = {
  day: { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" },
  month: { month: "long", year: "numeric", timeZone: "UTC" },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
const calendarFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A day's or a month's format in `locale`, made once: making one takes about as long as
 * rendering a memory's page, and an export writes a page for each of a million memories.
 */
function calendarFormat(locale: string, kind: keyof typeof calendarOptions): Intl.DateTimeFormat {
  const key = `${kind} ${locale}`;
  let format = calendarFormats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, calendarOptions[kind]);
    calendarFormats.set(key, format);
  }
  return format;
}

function calendarDay(date: string): Date {
  const day = new Date(Date.UTC(2000, Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))));
  day.setUTCFullYear(Number(date.slice(0, 4)));
  return day;
}

/** A memory's day in words, or that it has none (never the day it was added, which is not its date). */
function when(memory: ArchiveMemory, words: ServerMessages): string {
  return memory.memory_date ? longDate(memory.memory_date, words) : words.format("export.noDate");
}

/**
 * One memory: title, date, author, place, description, tags, every photo and video, reactions and
 * comments. `written` says whether a copy for the pages made it into the archive.
 */
export function renderMemoryPage(
  memory: ArchiveMemory,
  words: ServerMessages = english(),
  written: (file: string) => boolean = () => true,
): string {
  const year = yearOf(memory);
  const tags = memory.tags.length
    ? `<p class="tags">${memory.tags.map((tag) => `<span>${escape(tag)}</span>`).join("")}</p>`
    : "";
  // The cover leads, as in the app's gallery (ADR 0062); each keeps its number in the memory's order.
  const numbered = memory.photos.map((photo, index) => ({ photo, number: index + 1 }));
  const ordered = [
    ...numbered.filter(({ photo }) => photo.id === memory.cover_photo_id),
    ...numbered.filter(({ photo }) => photo.id !== memory.cover_photo_id),
  ];
  const photos = ordered.map(({ photo, number }) => media(photo, number, words, written)).join("\n");
  const moving = memory.photos.some((photo) => photo.kind === "video" || photo.kind === "live");
  const back = year === null ? words.format("export.undated") : year;
  return page(
    words,
    memory.title,
    `<nav><a href="../index.html">${escape(words.format("export.allMemories"))}</a> › <a href="../${yearPage(year)}">${escape(back)}</a></nav>
<h1>${escape(memory.title)}</h1>
<p class="meta">${escape(when(memory, words))} · ${escape(memory.display_name)}</p>
${placeLine(memory, words)}${memory.content ? `<pre>${escape(memory.content)}</pre>` : ""}
${tags}
${photos}
${reactionsLine(memory)}${commentsList(memory, words)}`,
    moving ? videoStyle : "",
  );
}

const regionNameFormats = new Map<string, Intl.DisplayNames>();

/** Countries' names in `locale`, made once (see calendarFormat). */
function regionNames(locale: string): Intl.DisplayNames {
  let names = regionNameFormats.get(locale);
  if (names === undefined) {
    names = new Intl.DisplayNames([locale], { type: "region", fallback: "none" });
    regionNameFormats.set(locale, names);
  }
  return names;
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
    country = place.country_code ? regionNames(words.locale).of(place.country_code) : undefined;
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
 * The file a page shows for a still: a HEIC or HEIF original through its JPEG copy beside it
 * (`….view.jpg`, the display copy the server made at upload), which every browser opens; any other
 * still, or one whose copy was lost, as its original.
 */
function shownFile(photo: ArchivePhoto, written: (file: string) => boolean): string {
  const view = viewFile(photo.file);
  return needsView(photo.content_type) && written(view) ? view : photo.file;
}

/** Whether browsers need a JPEG copy to show a still of this type. */
export function needsView(contentType: string): boolean {
  return contentType === "image/heic" || contentType === "image/heif";
}

/** The JPEG copy beside an original: `photos/m/p.heic` → `photos/m/p.view.jpg`. */
export function viewFile(file: string): string {
  return `${file.slice(0, file.lastIndexOf("."))}.view.jpg`;
}

/** The small picture of a memory in its year's list, beside its leading photo: `photos/m/p.thumb.webp`. */
export function thumbnailFile(file: string, extension: string): string {
  return `${file.slice(0, file.lastIndexOf("."))}.thumb.${extension}`;
}

/**
 * One photo, video or Live Photo of a memory's page, its files linked relatively. A video plays
 * in the page from its original, its poster shown until then; a browser that cannot play its kind
 * of file (an iPhone's HEVC in some) still offers the file to open. A Live Photo shows its still,
 * and its motion plays under it. A still links to its original, the file as it was uploaded.
 */
function media(photo: ArchivePhoto, number: number, words: ServerMessages, written: (file: string) => boolean): string {
  const file = `../${escape(photo.file)}`;
  if (photo.kind === "video") {
    const poster = photo.poster === undefined ? "" : ` poster="../${escape(photo.poster)}"`;
    const duration = clock(photo.duration_ms);
    const open = escape(
      duration === "" ? words.format("export.openVideo") : words.format("export.openVideoWithDuration", { duration }),
    );
    return `<figure class="video"><video controls preload="metadata" src="${file}"${poster}><a href="${file}">${open}</a></video><figcaption>${captionText(photo)}<a href="${file}">${open}</a></figcaption></figure>`;
  }
  const shown = `../${escape(shownFile(photo, written))}`;
  const size = photo.width > 0 && photo.height > 0 ? ` width="${photo.width}" height="${photo.height}"` : "";
  const open = escape(words.format("export.openPhoto", { number }));
  const still = `<a href="${file}"><img src="${shown}"${size} alt="${open}" loading="lazy"></a>`;
  if (photo.kind === "live" && photo.motion !== undefined) {
    const motion = `../${escape(photo.motion.file)}`;
    return `<figure class="live">${still}<figcaption>${captionText(photo)}${escape(words.format("export.livePhoto"))}</figcaption><video controls preload="metadata" src="${motion}" poster="${shown}"><a href="${motion}">${escape(words.format("export.openMotion"))}</a></video></figure>`;
  }
  return `<figure>${still}${photo.caption === undefined ? "" : `<figcaption>${escape(photo.caption)}</figcaption>`}</figure>`;
}

/** A video's or Live Photo's caption ahead of what its figure already says ("Sunset. "), or nothing. */
function captionText(photo: ArchivePhoto): string {
  return photo.caption === undefined ? "" : `${escape(photo.caption)} · `;
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
      `<li><p class="meta">${escape(comment.display_name)} · ${escape(longDate(comment.created_at.slice(0, 10), words))}</p><pre>${escape(comment.body)}</pre></li>`,
  );
  return `<h2>${escape(words.format("export.comments"))}</h2>\n<ul class="comments">\n${items.join("\n")}\n</ul>\n`;
}

/** What a year's page lists of a memory: kept in memory for one year at a time while exporting. */
export interface YearEntry {
  id: string;
  title: string;
  memory_date: string | null;
  display_name: string;
  /** How many photos and videos it has. */
  media: number;
  /** Its leading photo's small picture in the archive, if it has one. */
  thumbnail?: string;
  /** For the year's print view: its place's name, its words and its book photos (ADR 0070). */
  place: string | null;
  content: string | null;
  pictures: PrintPicture[];
}

/** A photo of a memory's page in the print view: the file shown (a still, its JPEG copy, or a video's poster) and its size. */
export interface PrintPicture {
  file: string;
  width: number;
  height: number;
}

/**
 * The entry of `memory` on its year's page; `thumbnail` is the small picture written beside its
 * leading photo, `written` says whether a copy for the pages made it into the archive.
 */
export function yearEntry(memory: ArchiveMemory, thumbnail?: string, written: (file: string) => boolean = () => true): YearEntry {
  return {
    id: memory.id,
    title: memory.title,
    memory_date: memory.memory_date,
    display_name: memory.display_name,
    media: memory.photos.length,
    ...(thumbnail === undefined ? {} : { thumbnail }),
    place: memory.place?.name ?? null,
    content: memory.content,
    pictures: bookPhotos({ photos: memory.photos, cover_photo_id: memory.cover_photo_id ?? null }).flatMap((photo) => {
      const file = photo.kind === "video" ? photo.poster : shownFile(photo, written);
      return file === undefined || !written(file) ? [] : [{ file, width: photo.width, height: photo.height }];
    }),
  };
}

/**
 * A year's memories by month, newest first as they come (the export reads them in the list's
 * order); the undated ones (`year` null) in one list, said to have no date.
 */
export function renderYearPage(year: string | null, entries: readonly YearEntry[], words: ServerMessages = english()): string {
  const heading = year ?? words.format("export.undated");
  const sections: string[] = [];
  if (year === null) {
    sections.push(`<p class="meta">${escape(words.format("export.undatedNote"))}</p>`, entryList(entries, words));
  } else {
    let month = "";
    let ofMonth: YearEntry[] = [];
    const close = () => {
      if (ofMonth.length > 0) sections.push(`<h2>${escape(monthName(month, words))}</h2>`, entryList(ofMonth, words));
    };
    for (const entry of entries) {
      const entryMonth = entry.memory_date!.slice(0, 7);
      if (entryMonth !== month) {
        close();
        month = entryMonth;
        ofMonth = [];
      }
      ofMonth.push(entry);
    }
    close();
  }
  return page(
    words,
    heading,
    `<nav><a href="../index.html">${escape(words.format("export.allMemories"))}</a></nav>
<h1>${escape(heading)}</h1>
<p class="meta">${escape(words.format("export.memoryCount", { count: entries.length }))}</p>
${year === null ? "" : `<p><a href="${yearPrintFile(year)}">${escape(words.format("export.printYear"))}</a></p>\n`}${sections.join("\n")}`,
  );
}

/** A year's print view beside its page: `years/2024.print.html` (the year page links to it as `2024.print.html`). */
export function yearPrintPage(year: string): string {
  return `years/${yearPrintFile(year)}`;
}

function yearPrintFile(year: string): string {
  return `${year}.print.html`;
}

/**
 * The print view's look: the book's pages (the web app's /book, ADR 0069) from the same layout
 * values (`@memory-box/contract/book-layout`): the printer's paper, mirrored margins for binding, page
 * numbers but on the cover, each memory on a page of its own with up to four photos, printed light.
 * On screen, the same pages one after the other, with a note saying how to print them.
 */
const printStyle = `
${bookPageRules(undefined, "font-family:ui-serif,Georgia,serif;font-size:10pt;color:#6b5f55;")}
body.book{max-width:44rem}
.book section{padding:2rem 0;border-top:1px solid var(--border)}
.book section.cover{border-top:none;min-height:60vh;display:flex;flex-direction:column;justify-content:center;align-items:center;text-align:center}
.book .cover h1{font-size:3rem}.book .cover p{font-size:1.25rem;margin:.25rem 0}.book .cover .year{font-family:ui-serif,Georgia,serif;font-size:2rem}
.book ol{list-style:none;padding:0;margin:0}.book ol ol li{display:flex;gap:.75rem}
.book .day{display:inline-block;min-width:2rem;text-align:end;color:var(--muted-foreground);font-variant-numeric:tabular-nums}
.book .when{text-transform:uppercase;letter-spacing:.05em;font-size:.875rem;color:var(--muted-foreground);margin:0}
.book h2{margin:.25rem 0 .5rem}
.book .photos{display:grid;gap:.75rem;grid-template-columns:1fr 1fr;margin:1rem 0;break-inside:avoid}
.book .photos img{width:100%;object-fit:contain;border-radius:0;break-inside:avoid}
.book .photos.one{grid-template-columns:1fr}.book .photos.one img{height:auto;max-height:calc(100vh * ${bookPhotoHeights.alone})}
.book .photos.two img{height:calc(100vh * ${bookPhotoHeights.two})}
.book .photos.more img{height:calc(100vh * ${bookPhotoHeights.more})}.book .photos.three img:first-child{grid-column:span 2}
@media print{
:root{color-scheme:light;${colours("light")}}
body.book{max-width:none;margin:0;padding:0;background:none}
.book .screen-only{display:none}
.book section{break-before:page;border-top:none;padding:0}
.book section.cover{break-before:auto;min-height:90vh}
.book header{break-after:avoid}
}`;

/**
 * A year as a book, for printing (issue #35's "the archive's print view"): a cover (the box's name
 * or "Our memories" as `/book` has it, the year, who wrote its memories, how many), the contents by month, then each memory on its own page, oldest
 * first as a book reads: its day, title, place and author, up to four photos (the cover first) and
 * its words in full. `entries` come newest first, as the year's page lists them.
 */
export function renderYearPrintPage(
  year: string,
  entries: readonly YearEntry[],
  words: ServerMessages = english(),
  title: string = words.format("export.bookTitle"),
): string {
  const oldestFirst = [...entries].reverse();
  const authors = bookAuthorNames(oldestFirst.map((entry) => entry.display_name));
  const months: { month: string; entries: YearEntry[] }[] = [];
  for (const entry of oldestFirst) {
    const month = entry.memory_date!.slice(0, 7);
    if (months.at(-1)?.month === month) months.at(-1)!.entries.push(entry);
    else months.push({ month, entries: [entry] });
  }
  const contents = months.map(
    ({ month, entries: ofMonth }) =>
      `<li><h3>${escape(monthName(month, words))}</h3><ol>${ofMonth
        .map(
          (entry) =>
            `<li><span class="day">${Number(entry.memory_date!.slice(8, 10))}</span><span>${escape(entry.title)}</span></li>`,
        )
        .join("")}</ol></li>`,
  );
  const memories = oldestFirst.map((entry) => {
    const details = [entry.place, words.format("export.by", { name: entry.display_name })].filter(Boolean) as string[];
    const pictures = entry.pictures;
    const layout = pictures.length === 1 ? "one" : pictures.length === 2 ? "two" : pictures.length === 3 ? "more three" : "more";
    const photos =
      pictures.length === 0
        ? ""
        : `<div class="photos ${layout}">${pictures
            .map(
              (picture, index) =>
                `<img src="../${escape(picture.file)}"${picture.width > 0 && picture.height > 0 ? ` width="${picture.width}" height="${picture.height}"` : ""} alt="${escape(words.format("export.photoOf", { title: entry.title, number: index + 1 }))}">`,
            )
            .join("")}</div>`;
    return `<section><header><p class="when">${escape(longDate(entry.memory_date!, words))}</p><h2>${escape(entry.title)}</h2><p class="meta">${escape(details.join(" · "))}</p></header>${photos}${entry.content ? `<pre>${escape(entry.content)}</pre>` : ""}</section>`;
  });
  return `<!doctype html>
<html lang="${words.locale}" dir="${words.direction}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(`${title} ${year}`)}</title><style>${style}${printStyle}</style></head>
<body class="book"><main>
<nav class="screen-only"><a href="../index.html">${escape(words.format("export.allMemories"))}</a> › <a href="${year}.html">${escape(year)}</a></nav>
<p class="meta screen-only">${escape(words.format("export.printNote"))}</p>
<section class="cover"><h1>${escape(title)}</h1><p class="year">${escape(year)}</p>${authors.length > 0 ? `<p>${escape(listFormat(authors, words))}</p>` : ""}<p class="meta">${escape(words.format("export.memoryCount", { count: entries.length }))}</p></section>
<section><h2>${escape(words.format("export.contents"))}</h2><ol>
${contents.join("\n")}
</ol></section>
${memories.join("\n")}
</main></body></html>
`;
}

function listFormat(names: readonly string[], words: ServerMessages): string {
  return new Intl.ListFormat(words.locale, { type: "conjunction" }).format(names);
}

function entryList(entries: readonly YearEntry[], words: ServerMessages): string {
  const items = entries.map((entry) => {
    const picture = entry.thumbnail === undefined ? "" : `<img src="../${escape(entry.thumbnail)}" alt="" loading="lazy">`;
    const day = entry.memory_date ? `${escape(longDate(entry.memory_date, words))} · ` : "";
    const media = entry.media > 0 ? ` · ${escape(words.format("export.mediaCount", { count: entry.media }))}` : "";
    return `<li>${picture}<div><a class="title" href="../${memoryPage(entry.id)}">${escape(entry.title)}</a><br><span class="meta">${day}${escape(entry.display_name)}${media}</span></div></li>`;
  });
  return `<ul class="entries">\n${items.join("\n")}\n</ul>`;
}

/** A year of the index: its page and how many memories it has (`year` null: the undated ones). */
export interface YearSummary {
  year: string | null;
  count: number;
}

/** `index.html`: the archive's title, what it holds, and its years, newest first, the undated ones last. */
export function renderIndexPage(
  exportedAt: string,
  total: number,
  years: readonly YearSummary[],
  words: ServerMessages = english(),
  boxName?: string,
): string {
  // The box's own name heads its archive (ADR 0065); without one, the catalogue's.
  const title = boxName ?? words.format("export.title");
  const items = years.map(
    ({ year, count }) =>
      `<li><a href="${yearPage(year)}">${escape(year ?? words.format("export.undated"))}</a> <span class="meta">${escape(words.format("export.memoryCount", { count }))}</span></li>`,
  );
  return page(
    words,
    title,
    `<h1>${escape(title)}</h1>
<p class="meta">${escape(words.format("export.summary", { count: total, exportedAt: longDate(exportedAt.slice(0, 10), words) }))}</p>
<h2>${escape(words.format("export.years"))}</h2>
<ul class="years">
${items.join("\n")}
</ul>`,
  );
}
