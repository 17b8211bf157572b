import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";

import { supportedLocales } from "./locales";

/**
 * The catalogues are kept complete (issue 30): every language has every key English has and no
 * other, each message is valid ICU, and a message's placeholders are the same, with the same
 * types, in every language (a plural's categories may differ: German has "one", Arabic six).
 */
const root = fileURLToPath(new URL("../catalogue/", import.meta.url));
const languages = fs.readdirSync(root).filter((entry) => fs.statSync(path.join(root, entry)).isDirectory());
const parts = [...new Set(languages.flatMap((language) => fs.readdirSync(path.join(root, language))))].filter((file) =>
  file.endsWith(".json"),
);

function read(language: string, part: string): Record<string, string> | undefined {
  const file = path.join(root, language, part);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, string>) : undefined;
}

const typeNames: Partial<Record<TYPE, string>> = {
  [TYPE.argument]: "text",
  [TYPE.number]: "number",
  [TYPE.date]: "date",
  [TYPE.time]: "time",
  [TYPE.select]: "select",
  [TYPE.plural]: "plural",
  [TYPE.tag]: "tag",
};

/** "name: type" for every placeholder of a message, nested ones included, sorted and without repeats. */
export function placeholders(message: string): string[] {
  const found = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      const type = typeNames[element.type];
      if (type && "value" in element) found.add(`${element.value}: ${type}`);
      if ("options" in element) for (const option of Object.values(element.options)) walk(option.value);
      if ("children" in element) walk(element.children);
    }
  };
  walk(parse(message));
  return [...found].sort();
}

describe("the message catalogues", () => {
  it("has English, and a folder for every language we speak", () => {
    expect(languages).toContain("en");
    for (const locale of supportedLocales) expect(languages).toContain(locale);
    expect(parts).toContain("web.json");
  });

  describe.each(parts)("%s", (part) => {
    const english = read("en", part)!;

    it("English: every message is valid ICU", () => {
      for (const [key, message] of Object.entries(english)) expect(() => parse(message), key).not.toThrow();
    });

    describe.each(languages.filter((language) => language !== "en" && read(language, part)))("%s", (language) => {
      const messages = read(language, part)!;

      it("has every key of English, and no other", () => {
        expect(Object.keys(messages).sort()).toEqual(Object.keys(english).sort());
      });

      it("has the placeholders of English, with their types, in every message", () => {
        for (const [key, message] of Object.entries(messages)) {
          if (english[key] === undefined) continue;
          expect(placeholders(message), `${language}/${part} ${key}`).toEqual(placeholders(english[key]));
        }
      });

      it("translates: no message left empty", () => {
        for (const [key, message] of Object.entries(messages)) expect(message.trim(), key).not.toBe("");
      });
    });
  });

  it("tells a differing placeholder, and a wrong type, from the same ones", () => {
    expect(placeholders("{count, plural, one {# memory} other {# memories}}")).toEqual(
      placeholders("{count, plural, other {# Erinnerungen}}"),
    );
    expect(placeholders("Welcome back, {name}!")).not.toEqual(placeholders("Willkommen zurück, {nom}!"));
    expect(placeholders("{count, number} left")).not.toEqual(placeholders("{count} übrig"));
    expect(() => parse("{count, plural, one {# memory}")).toThrow();
  });
});
