import { defaultLocale } from "@memory-box/messages";
import { serverMessages, type ServerMessages } from "@memory-box/messages/server";
import type { ArchiveMemory } from "./archive-format";
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

function page(words: ServerMessages, title: string, body: string): string {
  return `<!doctype html>
${htmlStart(words)}<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><style>${style}</style></head>
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
  const photos = memory.photos
    .map((photo) => `<a href="../${escape(photo.file)}"><img src="../${escape(photo.file)}" alt="" loading="lazy"></a>`)
    .join("\n");
  return page(
    words,
    memory.title,
    `<p><a href="../index.html">${escape(words.format("export.allMemories"))}</a></p>
<h1>${escape(memory.title)}</h1>
<p class="meta">${escape(when(memory))} · ${escape(memory.display_name)}</p>
${memory.content ? `<pre>${escape(memory.content)}</pre>` : ""}
${tags}
${photos}
${reactionsLine(memory)}${commentsList(memory, words)}`,
  );
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
