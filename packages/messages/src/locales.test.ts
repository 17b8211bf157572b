import { describe, expect, it } from "vitest";
import { localesFromAcceptLanguage, negotiateLocale, pickLocale } from "./locales";

describe("choosing a language", () => {
  it("reads an Accept-Language header by weight, then by order, leaving out * and malformed parts", () => {
    expect(localesFromAcceptLanguage("de-CH, fr;q=0.9, en;q=0.8, *;q=0.5")).toEqual(["de-CH", "fr", "en"]);
    expect(localesFromAcceptLanguage("en;q=0.2, ja")).toEqual(["ja", "en"]);
    expect(localesFromAcceptLanguage("fr;q=0")).toEqual([]);
    expect(localesFromAcceptLanguage(undefined)).toEqual([]);
  });

  it("answers English for what it does not have, and for nonsense", () => {
    expect(negotiateLocale(["xx-invalid-tag-!!"])).toBe("en");
    expect(negotiateLocale([])).toBe("en");
    expect(negotiateLocale(["en-GB"])).toBe("en");
  });

  it("answers Brazilian Portuguese for any Portuguese, before a language asked for after it", () => {
    expect(negotiateLocale(["pt-BR"])).toBe("pt-BR");
    expect(negotiateLocale(["pt"])).toBe("pt-BR");
    expect(negotiateLocale(["pt-PT", "en"])).toBe("pt-BR");
    expect(negotiateLocale(localesFromAcceptLanguage("pt-PT,pt;q=0.9,en;q=0.8"))).toBe("pt-BR");
  });

  it("answers Italian for Italian of any region", () => {
    expect(negotiateLocale(["it"])).toBe("it");
    expect(negotiateLocale(["it-CH", "de"])).toBe("it");
    expect(negotiateLocale(localesFromAcceptLanguage("sv-SE, it-IT;q=0.9, de;q=0.5"))).toBe("it");
  });
});

describe("choosing a language in the browser", () => {
  it("takes the first requested language we have, by tag then by language, else English", () => {
    expect(pickLocale(["en-GB", "de"])).toBe("en");
    expect(pickLocale(["xx", "EN-us"])).toBe("en");
    expect(pickLocale(["xx-invalid-tag-!!"])).toBe("en");
    expect(pickLocale([])).toBe("en");
  });

  it("takes Brazilian Portuguese for any Portuguese", () => {
    expect(pickLocale(["pt-BR"])).toBe("pt-BR");
    expect(pickLocale(["pt-br"])).toBe("pt-BR");
    expect(pickLocale(["pt"])).toBe("pt-BR");
    expect(pickLocale(["pt-PT", "en"])).toBe("pt-BR");
  });

  it("takes Italian for Italian of any region", () => {
    expect(pickLocale(["it"])).toBe("it");
    expect(pickLocale(["it-IT", "en"])).toBe("it");
    expect(pickLocale(["sv", "it-CH", "de"])).toBe("it");
  });
});
