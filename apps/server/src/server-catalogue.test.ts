import { errorCatalogue } from "@memory-box/contract";
import { supportedLocales } from "@memory-box/messages";
import { serverCatalogueLocales, serverCatalogueOf, serverMessages } from "@memory-box/messages/server";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";

// The server's catalogue (mail.json, errors.json, export.json, notifications.json) is complete in every language it
// has, each text parses as ICU MessageFormat with the same placeholders as the English, and the
// English errors are the contract's messages word for word.

const files = ["mail", "errors", "export", "notifications"] as const;
const english = serverCatalogueOf("en")!;

/** The names of a message's arguments, and of the arguments inside its plurals and selects. */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.argument || element.type === TYPE.number || element.type === TYPE.date) into.add(element.value);
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      into.add(element.value);
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    }
  }
  return into;
}

describe("the server's catalogue", () => {
  it("has every offered language", () => {
    for (const locale of supportedLocales) expect(serverCatalogueLocales).toContain(locale);
  });

  it("says each error's English message exactly as the contract does, for every code and no other", () => {
    const byCode = Object.entries(english.errors).filter(([id]) => id.startsWith("error."));
    expect(Object.fromEntries(byCode)).toEqual(
      Object.fromEntries(Object.entries(errorCatalogue).map(([code, entry]) => [`error.${code}`, entry.message])),
    );
  });

  it("has, beside them, only the texts errors are thrown with (errorText.*)", () => {
    for (const id of Object.keys(english.errors)) expect(id).toMatch(/^(error|errorText)\./);
  });

  describe.each(serverCatalogueLocales.filter((locale) => locale !== "en"))("in %s", (locale) => {
    const catalogue = serverCatalogueOf(locale)!;

    it.each(files)("has every key of the English %s.json and no other", (file) => {
      expect(Object.keys(catalogue[file]).sort()).toEqual(Object.keys(english[file]).sort());
    });

    it.each(files)("keeps the English placeholders in each text of %s.json", (file) => {
      for (const [id, text] of Object.entries(catalogue[file])) {
        const wanted = argumentsOf(parse(english[file][id]!));
        // A select may leave out an argument that one language needs and another does not (a/an).
        const found = argumentsOf(parse(text));
        for (const name of found) expect({ id, name, known: wanted.has(name) }).toEqual({ id, name, known: true });
        for (const name of wanted)
          if (!(id === "mail.wallet.some" && name === "vowel"))
            expect({ id, name, kept: found.has(name) }).toEqual({ id, name, kept: true });
      }
    });

    it("formats every error message", () => {
      const words = serverMessages(locale);
      for (const code of Object.keys(errorCatalogue)) expect(words.format(`error.${code}` as "error.not_found")).not.toBe("");
    });
  });
});
