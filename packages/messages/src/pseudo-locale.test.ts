import { parse } from "@formatjs/icu-messageformat-parser";
import IntlMessageFormat from "intl-messageformat";
import { describe, expect, it } from "vitest";
import { pseudoMessage, pseudoMessages } from "./pseudo-locale";

const format = (message: string, values?: Record<string, unknown>) =>
  new IntlMessageFormat(pseudoMessage(parse(message)), "en").format(values) as string;

describe("the pseudo-locale", () => {
  it("frames, accents and lengthens a plain text by about 40 %, in words a line can break between", () => {
    const text = pseudoMessage("Add Memory") as string;
    expect(text).toBe("⟦Àđđ Ṁéɱöŕý ~~~⟧");
    expect(text.length).toBeGreaterThanOrEqual(Math.round("Add Memory".length * 1.4));
    expect(pseudoMessage("Choose a password that is hard to guess")).toMatch(/ ~~~~ ~~~~ ~~~~ ~~~⟧$/);
  });

  it("keeps placeholders, plurals and their values working, accenting only the words", () => {
    expect(format("Welcome back, {name}!", { name: "Ann" })).toBe("⟦Ŵéĺçöɱé ƀàçķ, Ann! ~~~~ ~⟧");
    const plural = "{count, plural, one {# memory} other {# memories}}";
    expect(format(plural, { count: 1 })).toMatch(/^⟦1 ɱéɱöŕý [~ ]+⟧$/);
    expect(format(plural, { count: 2 })).toMatch(/^⟦2 ɱéɱöŕîéš [~ ]+⟧$/);
    expect(format("Read the <a>terms</a>", { a: (chunks: string[]) => `[${chunks.join("")}]` })).toBe(
      "⟦Ŕéàđ ţĥé [ţéŕɱš] ~~~~ ~⟧",
    );
  });

  it("makes a message of every English one, and leaves an empty text empty", () => {
    const english = { one: "One", two: parse("Two {n}"), empty: "" };
    const pseudo = pseudoMessages(english);
    expect(Object.keys(pseudo)).toEqual(["one", "two", "empty"]);
    expect(pseudo.empty).toBe("");
  });
});
