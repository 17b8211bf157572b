import { defaultLocale, pseudoLocale, type Locale } from "@memory-box/messages";
import { bundledWebMessages, loadWebMessages, type WebMessages } from "@memory-box/messages/web";

import { shownLocale } from "@/lib/intl";
import { currentLocale } from "@/lib/locale";

/**
 * The messages loaded so far, per language (ADR 0048, 0051). The built app loads the catalogue in
 * parts (apps/web/vite.config.ts, `catalogueParts`), English's like any other: the shell's first
 * (main.tsx), a screen's part when a screen that shows it is loaded (`needMessages`), and only in
 * the language shown and the one being switched to. One object per language, filled as its parts
 * arrive, so the formatter made for it (`createIntl`) sees them at once. In development and tests
 * English is there at once (`bundledWebMessages`) and a part brings the whole language.
 */
interface Loaded {
  parts: Set<string>;
  messages: WebMessages;
}

const loaded = new Map<Locale, Loaded>(
  Object.entries(bundledWebMessages).flatMap(([locale, messages]): Array<[Locale, Loaded]> =>
    messages ? [[locale as Locale, { parts: new Set(["shell"]), messages: { ...messages } }]] : [],
  ),
);
const pending = new Map<string, Promise<void>>();
/** The parts the screens shown so far need, in whatever language is shown next. */
const needed = new Set<string>(["shell"]);
const listeners = new Set<() => void>();
let version = 0;

function changed(): void {
  version += 1;
  for (const listener of listeners) listener();
}

function loadPart(locale: Locale, part: string): Promise<void> {
  let entry = loaded.get(locale);
  if (!entry) {
    entry = { parts: new Set(), messages: {} };
    loaded.set(locale, entry);
  }
  if (entry.parts.has(part)) return Promise.resolve();
  const key = `${locale} ${part}`;
  let loading = pending.get(key);
  if (!loading) {
    const into = entry;
    loading = messagesIn(locale, part)
      .then((messages) => {
        Object.assign(into.messages, messages);
        into.parts.add(part);
        changed();
      })
      .finally(() => pending.delete(key));
    pending.set(key, loading);
  }
  return loading;
}

/** A part's messages in a language; the pseudo-locale's are made from English's (pseudo-locale.ts). */
async function messagesIn(locale: Locale, part: string): Promise<WebMessages> {
  if (locale !== pseudoLocale) return loadWebMessages(locale, [part]);
  const [english, { pseudoMessages }] = await Promise.all([
    loadWebMessages(defaultLocale, [part]),
    import("@memory-box/messages/pseudo"),
  ]);
  return pseudoMessages(english);
}

/** Whether every part the screens need has arrived in this language. */
export function hasMessages(locale: Locale): boolean {
  const parts = loaded.get(locale)?.parts;
  return parts !== undefined && [...needed].every((part) => parts.has(part));
}

/** A language's messages loaded so far (the same object as more of them arrive). */
export function messagesOf(locale: Locale): WebMessages {
  return loaded.get(locale)?.messages ?? {};
}

/** Loads the parts the screens need in a language (before it is shown). */
export async function loadMessages(locale: Locale): Promise<void> {
  await Promise.all([...needed].map((part) => loadPart(locale, part)));
}

/**
 * Loads the messages of a screen's parts in the language shown and the one wanted (they differ
 * while a switch is on its way), and keeps them needed for any language shown later; a screen's
 * route awaits it with its code (app/router.tsx).
 */
export async function needMessages(parts: readonly string[]): Promise<void> {
  const fresh = parts.filter((part) => !needed.has(part));
  for (const part of fresh) needed.add(part);
  if (fresh.length > 0) changed();
  const locales = new Set([shownLocale() ?? currentLocale(), currentLocale()]);
  await Promise.all([...locales].flatMap((locale) => parts.map((part) => loadPart(locale, part))));
}

export function subscribeToMessages(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Changes each time a part arrives or is needed (for `useSyncExternalStore`). */
export function messagesVersion(): number {
  return version;
}
