import { supportedLocales } from "@memory-box/messages";
import { foldPlaceName } from "./place-fold";

/**
 * Countries as a member may type them after a comma ("Sintra, Portugal", "Sintra, PT", "Sintra,
 * Portugalia"): their ISO code, or the start of their name, long or short ("United Kingdom",
 * "UK"), in any language Memory Box speaks. The names come from the ICU data Node ships
 * (`Intl.DisplayNames`), so they are the ones the screens show.
 */
export class CountryNames {
  private readonly names: { folded: string; country: number }[] = [];
  private readonly codes = new Map<string, number>();

  /** `countries`: ISO 3166-1 alpha-2 codes; a match is told by its index in this list. */
  constructor(countries: readonly string[], languages: readonly string[] = supportedLocales) {
    const seen = new Set<string>();
    const displayNames = languages.flatMap((language) => [
      new Intl.DisplayNames([language], { type: "region", fallback: "none" }),
      new Intl.DisplayNames([language], { type: "region", style: "short", fallback: "none" }),
    ]);
    countries.forEach((code, country) => {
      this.codes.set(code.toLowerCase(), country);
      for (const names of displayNames) {
        const name = names.of(code);
        const folded = name === undefined ? "" : foldPlaceName(name);
        if (folded === "" || seen.has(`${country}:${folded}`)) continue;
        seen.add(`${country}:${folded}`);
        this.names.push({ folded, country });
      }
    });
  }

  /**
   * The countries `text` may mean, by index: its code, and every country with a name starting
   * with it (so a half-typed "Portu" already narrows). Empty when it names none.
   */
  matching(text: string): Set<number> {
    const folded = foldPlaceName(text);
    const found = new Set<number>();
    if (folded === "") return found;
    const byCode = this.codes.get(folded);
    if (byCode !== undefined) found.add(byCode);
    for (const { folded: name, country } of this.names) {
      if (name.startsWith(folded)) found.add(country);
    }
    return found;
  }
}
