import { AsyncLocalStorage } from "node:async_hooks";
import { localesFromAcceptLanguage, negotiateLocale, supportedLocales } from "@memory-box/messages";
import { serverCatalogueLocales, serverMessages, type ServerMessages } from "@memory-box/messages/server";
import type { FastifyInstance } from "fastify";

/**
 * Which language the server writes in (ADR 0049): the reader's choice on their account when it is
 * one we offer; else the language the request that caused the text asked for (`Accept-Language`);
 * else English. A request's wishes are kept for everything it causes, mails sent after the answer
 * included.
 */
interface RequestLanguages {
  /** The languages offered: `supportedLocales`, unless the app was built with others. */
  offered: readonly string[];
  /** The request's `Accept-Language` tags, most wanted first. */
  requested: string[];
}

const storage = new AsyncLocalStorage<RequestLanguages>();

/**
 * Keeps each request's `Accept-Language` for what it causes. `offered` is `supportedLocales`; tests
 * offer a language the server's catalogue has before the product offers it.
 */
export function registerRequestLanguages(app: FastifyInstance, offered: readonly string[] = supportedLocales): void {
  const missing = offered.filter((locale) => !serverCatalogueLocales.includes(locale));
  if (missing.length > 0) throw new Error(`The server's catalogue has no texts in ${missing.join(", ")}`);
  app.addHook("onRequest", (request, _reply, done) => {
    storage.run({ offered, requested: requestedLanguages(request.headers["accept-language"]) }, done);
  });
}

/** The languages a member may choose: `supportedLocales`, or those the app was built with. */
export function offeredLanguages(): readonly string[] {
  return storage.getStore()?.offered ?? supportedLocales;
}

/**
 * The language for a reader: `choice` (their account's) if offered, else the best of the offered
 * languages for `requested` (the current request's `Accept-Language` unless given), else English.
 */
export function languageFor(choice: string | null | undefined, requested?: readonly string[]): string {
  const offered = offeredLanguages();
  if (choice && offered.includes(choice)) return choice;
  return negotiateLocale(requested ?? storage.getStore()?.requested ?? [], offered);
}

/** The server's messages in `languageFor(choice, requested)`. */
export function messagesFor(choice: string | null | undefined, requested?: readonly string[]): ServerMessages {
  return serverMessages(languageFor(choice, requested));
}

/** The tags of a request's `Accept-Language` header. */
export function requestedLanguages(header: string | string[] | undefined): string[] {
  return localesFromAcceptLanguage(Array.isArray(header) ? header.join(",") : header);
}
