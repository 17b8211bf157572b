/** The paper a book is laid out for: ISO A4 or US Letter. */
export type Paper = "a4" | "letter";

export const papers: readonly Paper[] = ["a4", "letter"];

/** Each paper's width and height, as CSS `@page { size }` takes them. */
export const paperSizes: Record<Paper, { width: string; height: string }> = {
  a4: { width: "210mm", height: "297mm" },
  letter: { width: "8.5in", height: "11in" },
};

/**
 * The page's margins: wider on the binding side (left on a right-hand page, right on a left-hand
 * one), where a bound book's pages curve away; the foot keeps room for the page number.
 */
export const bookMargins = { top: "18mm", bottom: "22mm", binding: "25mm", outside: "15mm" } as const;

/** The address's `paper`, else Letter where it is the usual paper (the US and Canada), A4 elsewhere. */
export function paperOf(param: string | null, language: string): Paper {
  if (param === "a4" || param === "letter") return param;
  return /-(US|CA)$/i.test(language) ? "letter" : "a4";
}

/**
 * The print rules for a paper: its size and margins, the page number at the foot of every page
 * but the cover's, and light colours whatever the screen's theme. The tokens are written as
 * light-dark() pairs, which the build turns into a choice by two variables on the root
 * (`--lightningcss-light`/`-dark`, as the `.light` class sets them): printing sets them as light does.
 */
export function printRules(paper: Paper): string {
  const { width, height } = paperSizes[paper];
  const { top, bottom, binding, outside } = bookMargins;
  return `@page {
  size: ${width} ${height};
  margin: ${top} ${outside} ${bottom} ${binding};
  @bottom-center { content: counter(page); font-family: var(--heading-font); font-size: 10pt; color: var(--muted-foreground); }
}
@page :left { margin-left: ${outside}; margin-right: ${binding}; }
@page :right { margin-left: ${binding}; margin-right: ${outside}; }
@page :first { @bottom-center { content: none; } }
@media print {
  :root:root { color-scheme: light; --lightningcss-light: initial; --lightningcss-dark: ; }
  body { background: none; }
  [data-sonner-toaster] { display: none !important; }
}`;
}
