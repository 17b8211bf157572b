import { getDocument, OPS } from "pdfjs-dist/legacy/build/pdf.mjs";

/** What a PDF printed by Chromium holds, read back with PDF.js (the book's and the archive's print journeys). */
export interface ReadPdf {
  pages: number;
  /** Each page's text, its pieces joined by spaces. */
  texts: string[];
  /** Each page's size in points. */
  sizes: { width: number; height: number }[];
  /** How many images each page paints. */
  images: number[];
}

export async function readPdf(pdf: Buffer): Promise<ReadPdf> {
  const loading = getDocument({ data: new Uint8Array(pdf), useSystemFonts: true });
  const document = await loading.promise;
  const read: ReadPdf = { pages: document.numPages, texts: [], sizes: [], images: [] };
  for (let number = 1; number <= document.numPages; number += 1) {
    const page = await document.getPage(number);
    const content = await page.getTextContent();
    read.texts.push(content.items.map((item) => ("str" in item ? item.str : "")).join(" "));
    const viewport = page.getViewport({ scale: 1 });
    read.sizes.push({ width: Math.round(viewport.width), height: Math.round(viewport.height) });
    const operators = await page.getOperatorList();
    read.images.push(operators.fnArray.filter((operator) => operator === OPS.paintImageXObject).length);
  }
  await loading.destroy();
  return read;
}
