import { TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import type { WebMessages } from "./web-catalogue";

/**
 * The pseudo-locale's messages (`pseudoLocale`): English made longer and accented ("Add Memory" →
 * "⟦Àđđ Ṁéɱöŕý ~~~⟧"). Each message is framed, so a label cut at either end shows it, about 40 %
 * longer (German and French run 30 % longer than English), and its letters carry accents, so a
 * text that escaped the catalogue stands out in plain English.
 */

const accented: Record<string, string> = Object.fromEntries(
  [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"].map((letter, index) => [
    letter,
    [..."àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"][index]!,
  ]),
);

function accent(text: string): string {
  return text.replace(/[a-zA-Z]/g, (letter) => accented[letter]!);
}

/** How many letters the message shows (its literal parts, in every branch). */
function letterCount(elements: MessageFormatElement[]): number {
  let count = 0;
  for (const element of elements) {
    if (element.type === TYPE.literal) count += element.value.length;
    if ("options" in element) count += Math.max(0, ...Object.values(element.options).map((option) => letterCount(option.value)));
    if (element.type === TYPE.tag) count += letterCount(element.children);
  }
  return count;
}

function accentElements(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: accent(element.value) };
    if (element.type === TYPE.tag) return { ...element, children: accentElements(element.children) };
    if (element.type === TYPE.select || element.type === TYPE.plural) {
      const options = Object.fromEntries(
        Object.entries(element.options).map(([key, option]) => [key, { ...option, value: accentElements(option.value) }]),
      );
      return { ...element, options };
    }
    return element;
  });
}

/** About 40 % more, as words of up to four letters: a line may break between them, as in a real language. */
function padding(letters: number): string {
  if (letters === 0) return "";
  const tildes = "~".repeat(Math.max(1, Math.ceil(letters * 0.4) - 1));
  return ` ${tildes.match(/~{1,4}/g)!.join(" ")}`;
}

/** One message in the pseudo-locale, as text or as its parsed form. */
export function pseudoMessage(message: string | MessageFormatElement[]): string | MessageFormatElement[] {
  if (typeof message === "string") return message === "" ? message : `⟦${accent(message)}${padding(message.length)}⟧`;
  const literal = (value: string): MessageFormatElement => ({ type: TYPE.literal, value });
  return [literal("⟦"), ...accentElements(message), literal(`${padding(letterCount(message))}⟧`)];
}

/** The pseudo-locale's messages, made from English's. */
export function pseudoMessages(english: WebMessages): WebMessages {
  return Object.fromEntries(Object.entries(english).map(([id, message]) => [id, pseudoMessage(message)]));
}
