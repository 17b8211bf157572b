import { readFile } from "node:fs/promises";
import { serverMessages } from "@memory-box/messages/server";
import { describe, expect, it } from "vitest";
import { bookMargins } from "@memory-box/contract/book-layout";
import { archiveColours, renderIndexPage, renderYearPage, renderYearPrintPage, type YearEntry } from "./archive-pages";

const entry = (title: string, memory_date: string | null, more: Partial<YearEntry> = {}): YearEntry => ({
  id: `00000000-0000-4000-8000-${String(title.length).padStart(12, "0")}`,
  title,
  memory_date,
  display_name: "Ann",
  media: 0,
  place: null,
  content: null,
  pictures: [],
  ...more,
});

describe("the archive's pages", () => {
  it("wear the web app's colours, light and dark, as its design tokens have them", async () => {
    const css = await readFile(new URL("../../../../web/src/index.css", import.meta.url), "utf8");
    for (const [name, light] of Object.entries(archiveColours.light)) {
      const token = new RegExp(`--${name}: light-dark\\((oklch\\([^)]*\\)), (oklch\\([^)]*\\))\\);`).exec(css);
      expect(token, name).not.toBeNull();
      expect([light, archiveColours.dark[name as keyof typeof archiveColours.dark]]).toEqual([token![1], token![2]]);
    }
  });

  it("list a year's memories under their months, newest first as the export reads them, in the pages' language", () => {
    const page = renderYearPage(
      "2024",
      [
        entry("Autumn <walk>", "2024-10-03", { media: 2, thumbnail: "photos/m/p.thumb.webp" }),
        entry("Harvest", "2024-10-01"),
        entry("Spring", "2024-04-20"),
      ],
      serverMessages("de"),
    );
    const headings = [...page.matchAll(/<h2>([^<]+)<\/h2>/g)].map((match) => match[1]);
    expect(headings).toEqual(["Oktober 2024", "April 2024"]);
    expect(page).toContain('<html lang="de" dir="ltr">');
    expect(page).toContain("3 Erinnerungen");
    expect(page).toContain("Autumn &#60;walk&#62;");
    expect(page).not.toContain("<walk>");
    expect(page).toContain('<img src="../photos/m/p.thumb.webp" alt="" loading="lazy">');
    expect(page).toContain("2 Fotos und Videos");
    expect(page.indexOf("Harvest")).toBeLessThan(page.indexOf("Spring"));
  });

  it("say the undated memories have no date instead of giving them the day they were added", () => {
    const page = renderYearPage(null, [entry("Someday", null)]);
    expect(page).toContain("<h1>Without a date</h1>");
    expect(page).toContain("These memories were kept without a date");
    expect(page).not.toMatch(/<h2>/);
  });

  it("start at the years, each linking its page with its count, right to left in Arabic", () => {
    const years = [
      { year: "2025", count: 1 },
      { year: "1999", count: 12 },
      { year: null, count: 2 },
    ];
    const english = renderIndexPage("2026-11-28T08:00:00.000Z", 15, years);
    expect(
      [...english.matchAll(/<li><a href="([^"]+)">([^<]+)<\/a> <span class="meta">([^<]+)</g)].map((m) => m.slice(1)),
    ).toEqual([
      ["years/2025.html", "2025", "1 memory"],
      ["years/1999.html", "1999", "12 memories"],
      ["years/undated.html", "Without a date", "2 memories"],
    ]);
    expect(renderIndexPage("2026-11-28T08:00:00.000Z", 15, years, serverMessages("ar"))).toContain('<html lang="ar" dir="rtl">');
  });

  it("print a year as the web app's book: cover, contents by month, then each memory oldest first on a page of its own", () => {
    const picture = (n: number) => ({ file: `photos/m/p${n}.jpg`, width: 1200, height: 800 });
    const page = renderYearPrintPage(
      "2024",
      [
        entry("Autumn <walk>", "2024-10-03", {
          display_name: "Ben",
          place: "Sintra",
          content: "Leaves & rain",
          pictures: [picture(1), picture(2), picture(3)],
        }),
        entry("Harvest", "2024-10-01", { pictures: [picture(4)] }),
        entry("Spring", "2024-04-20"),
      ],
      serverMessages("fr"),
    );
    // The year page links it; undated memories have none (a book is of dated days).
    expect(renderYearPage("2024", [entry("Spring", "2024-04-20")])).toContain(
      '<a href="2024.print.html">Print this year as a book</a>',
    );
    expect(renderYearPage(null, [entry("Someday", null)])).not.toContain("print.html");

    // Cover: the year, who wrote most first, the count; then the contents; then one section a memory.
    const sections = [...page.matchAll(/<section[^>]*>([\s\S]*?)<\/section>/g)].map((match) => match[1]!);
    expect(sections).toHaveLength(5);
    expect(sections[0]).toContain("<h1>Nos souvenirs</h1>");
    expect(sections[0]).toContain('<p class="year">2024</p>');
    // The box's name, when it has one, is the book's title (ADR 0065), as on /book.
    expect(renderYearPrintPage("2024", [entry("Spring", "2024-04-20")], serverMessages("fr"), "Ann & Ben")).toContain(
      "<h1>Ann &#38; Ben</h1>",
    );
    expect(sections[0]).toContain("Ann et Ben");
    expect(sections[0]).toContain("3 souvenirs");
    expect(sections[1]).toContain("<h2>Sommaire</h2>");
    expect([...sections[1]!.matchAll(/<h3>([^<]+)<\/h3>/g)].map((match) => match[1])).toEqual(["avril 2024", "octobre 2024"]);
    expect(sections.slice(2).map((section) => /<h2>([^<]+)<\/h2>/.exec(section)![1])).toEqual([
      "Spring",
      "Harvest",
      "Autumn &#60;walk&#62;",
    ]);
    const autumn = sections[4]!;
    expect(autumn).toContain("3 octobre 2024");
    expect(autumn).toContain("Sintra · Par Ben");
    expect(autumn).toContain('<div class="photos more three">');
    expect([...autumn.matchAll(/<img src="([^"]+)"/g)].map((match) => match[1])).toEqual([
      "../photos/m/p1.jpg",
      "../photos/m/p2.jpg",
      "../photos/m/p3.jpg",
    ]);
    expect(autumn).toContain("<pre>Leaves &#38; rain</pre>");
    expect(page).not.toContain("<walk>");
    expect(page).not.toMatch(/<script/i);

    // The book's paged rules, from the values the web app's /book uses: mirrored binding margins,
    // page numbers but on the cover, the printer's paper (no size), printed light.
    expect(page).toContain(`@page :left { margin-left: ${bookMargins.outside}; margin-right: ${bookMargins.binding}; }`);
    expect(page).toContain(`@page :right { margin-left: ${bookMargins.binding}; margin-right: ${bookMargins.outside}; }`);
    expect(page).toContain("@page :first { @bottom-center { content: none; } }");
    expect(page).not.toMatch(/@page \{\s*size:/);
    expect(page).toMatch(/@media print\{\s*:root\{color-scheme:light;/);
  });
});
