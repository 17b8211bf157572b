import { foldForSearch } from "../../../lib/search-text";

/**
 * Letters that carry no accent to remove: compatibility decomposition leaves them whole, so
 * "Łódź" would fold to "łodz" and "lodz" would not find it. A person typing without them types
 * these instead.
 */
const plainLetters: Record<string, string> = {
  ł: "l",
  ø: "o",
  đ: "d",
  ħ: "h",
  ı: "i",
  ŀ: "l",
  ß: "ss",
  æ: "ae",
  œ: "oe",
  þ: "th",
};
const plainLetterPattern = new RegExp(`[${Object.keys(plainLetters).join("")}]`, "gu");
const separators = /[\p{P}\p{S}\s]+/gu;
const printableAscii = /^[\x20-\x7e]*$/;
// Every printable ASCII character but letters and digits is punctuation, a symbol or a space.
const asciiSeparators = /[^a-z0-9]+/g;

/**
 * A place name or query as search compares it: folded like memory search text (case and accents
 * ignored), the few letters without a decomposition spelt plainly, and punctuation read as a
 * space ("Saint-Étienne" and "saint etienne" are one name), spaces collapsed.
 */
export function foldPlaceName(text: string): string {
  // Most names are plain ASCII, where folding is lower-casing and spacing: the same result, without
  // normalising (the cities data folds 135,000 names when it loads).
  if (printableAscii.test(text)) return text.toLowerCase().replace(asciiSeparators, " ").trim();
  return foldForSearch(text)
    .replace(plainLetterPattern, (letter) => plainLetters[letter] ?? letter)
    .replace(separators, " ")
    .trim();
}
