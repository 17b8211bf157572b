import { bookPageRules } from "@memory-box/contract/book-layout";

/** The paper a book is laid out for: ISO A4 or US Letter. */
export type Paper = "a4" | "letter";

export const papers: readonly Paper[] = ["a4", "letter"];

/** Each paper's width and height, as CSS `@page { size }` takes them. */
export const paperSizes: Record<Paper, { width: string; height: string }> = {
  a4: { width: "210mm", height: "297mm" },
  letter: { width: "8.5in", height: "11in" },
};

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
  return `${bookPageRules(paperSizes[paper], "font-family: var(--heading-font); font-size: 10pt; color: var(--muted-foreground);")}
@media print {
  :root:root { color-scheme: light; --lightningcss-light: initial; --lightningcss-dark: ; }
  body { background: none; }
  [data-sonner-toaster] { display: none !important; }
}`;
}
