/**
 * The hand-over between the first screen (drawn without React by the small script that starts
 * the page, ADR 0026) and the React app. The script asks the API for what the first screen shows
 * as soon as the page starts; the app takes those answers instead of asking again, and replaces
 * the painted screen with its own once it shows the same thing. Nothing here may import React,
 * auth-js or the contract's validators: this module is also part of that first script (a copy of
 * it: the two are built apart and share their state through one object on the page).
 */

interface PaintedScreen {
  screen: HTMLElement;
  root: HTMLElement;
}

/**
 * What the first script and the app share. They are built apart (the first script is a bundle
 * of its own, so the app's chunks and the sign-in page's code stay as they were) and each has
 * its own copy of this module: the state lives in one object on the page, under one name.
 */
interface Handover {
  /** Answers of requests the first script started, by path; each is taken once. */
  earlyAnswers: Map<string, Promise<unknown>>;
  /** The app has taken at least one early answer since the live stream last asked. */
  earlyAnswerTaken: boolean;
  painted: PaintedScreen | undefined;
  /** The app has decided what to show: from then on the first screen is never painted. */
  over: boolean;
  /** Set by the first script as it runs: when the app may start rendering. */
  appMayStart: Promise<void> | undefined;
}

const handoverKey = "__memoryBoxFirstScreen";

function handover(): Handover {
  const page = globalThis as typeof globalThis & { [handoverKey]?: Handover };
  page[handoverKey] ??= {
    earlyAnswers: new Map(),
    earlyAnswerTaken: false,
    painted: undefined,
    over: false,
    appMayStart: undefined,
  };
  return page[handoverKey];
}

/** Longest the app waits for a painted first screen's photos before it starts rendering. */
const photoWaitMs = 1_000;

/** Longest the app waits for a first script that has not run yet (it loads `async`, so it may run after the app's). */
const scriptWaitMs = 1_000;

/**
 * The app starts rendering once `started` (the first script's work) has settled and, when it
 * painted, the painted photos have arrived and been shown (or a second has passed): the app's
 * first render is long work on the main thread, and done earlier it would hold back the frames
 * that show those photos.
 */
export function holdAppUntilFirstScreen(started: Promise<boolean>): void {
  const state = handover();
  state.appMayStart = started
    .then(async (shown) => {
      if (!shown || !state.painted) return;
      const photos = [...state.painted.screen.querySelectorAll<HTMLImageElement>('img[loading="eager"]')];
      await Promise.race([
        Promise.all(
          photos.map(
            (photo) =>
              new Promise((resolve) => {
                if (photo.complete) resolve(undefined);
                photo.addEventListener("load", resolve, { once: true });
                photo.addEventListener("error", resolve, { once: true });
              }),
          ),
        ),
        new Promise((resolve) => setTimeout(resolve, photoWaitMs)),
      ]);
      // One frame to paint them.
      await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
    })
    .catch(() => undefined);
}

/**
 * Resolves when the app may start rendering: at once when the page has no first script; when it
 * has one that has not run yet, once it has run (or failed to load, or a second has passed).
 */
export function whenAppMayStart(
  script: HTMLScriptElement | null = document.querySelector("script[data-first-screen]"),
): Promise<void> {
  const started = handover().appMayStart;
  if (started) return started;
  if (!script) return Promise.resolve();
  return new Promise<void>((resolve) => {
    script.addEventListener("load", () => resolve(), { once: true });
    script.addEventListener("error", () => resolve(), { once: true });
    setTimeout(resolve, scriptWaitMs);
  }).then(() => handover().appMayStart);
}

/** Longest the app's screen waits for its first-screen photos to decode before it replaces the painted one. */
const imageWaitMs = 500;

/**
 * Starts `GET path` as the member of `accessToken`; its JSON body when the API answers 2xx,
 * undefined for anything else (a refused, expired or failed request is the app's to repeat and
 * report, exactly as if this one had never been made).
 */
export function requestEarly(path: string, accessToken: string): Promise<unknown> {
  const answer = fetch(path, { headers: { Accept: "application/json", Authorization: `Bearer ${accessToken}` } })
    .then((response) => (response.ok ? (response.json() as Promise<unknown>) : undefined))
    .catch(() => undefined);
  handover().earlyAnswers.set(path, answer);
  return answer;
}

/**
 * The early answer to `GET path`, answered or still on its way, once; undefined when there is
 * none (the app then asks itself). A promise resolving to undefined means the early request
 * failed: ask again.
 */
export function takeEarlyAnswer<T>(path: string): Promise<T | undefined> | undefined {
  const state = handover();
  const answer = state.earlyAnswers.get(path);
  state.earlyAnswers.delete(path);
  if (answer) state.earlyAnswerTaken = true;
  return answer as Promise<T | undefined> | undefined;
}

/**
 * Whether the app has taken an early answer since the last call. Those answers were given
 * before the app's live stream opened (while its code was still arriving), so a change made in
 * that gap reached no one: the stream's first opening refreshes what they filled.
 */
export function takeEarlyAnswerTaken(): boolean {
  const state = handover();
  const taken = state.earlyAnswerTaken;
  state.earlyAnswerTaken = false;
  return taken;
}

/** At sign-out: answers fetched for the session that ended are dropped. */
export function forgetEarlyAnswers(): void {
  handover().earlyAnswers.clear();
}

/**
 * Shows `screen` in place of the app's root until the app takes over. Refused (false) once the
 * app has already decided what to show: a late paint would cover it.
 */
export function showFirstScreen(screen: HTMLElement, root: HTMLElement): boolean {
  const state = handover();
  if (state.over || state.painted) return false;
  root.before(screen);
  root.hidden = true;
  state.painted = { screen, root };
  return true;
}

/** Whether a painted first screen is showing. */
export function isFirstScreenShown(): boolean {
  return handover().painted !== undefined;
}

/**
 * The app shows something else than the painted home (another screen, the sign-in screen, the
 * code step): the painted screen goes at once.
 */
export function endFirstScreen(): void {
  const state = handover();
  state.over = true;
  if (!state.painted) return;
  const { screen, root } = state.painted;
  state.painted = undefined;
  screen.remove();
  root.hidden = false;
}

/**
 * The app's home is rendered (still hidden) with the same data: once its first-screen photos are
 * decoded (they come from the cache the painted screen filled), it replaces the painted screen in
 * one frame, so nothing moves or flickers.
 */
export async function handOverFirstScreen(): Promise<void> {
  const state = handover();
  state.over = true;
  if (!state.painted) return;
  const { root } = state.painted;
  const photos = [...root.querySelectorAll<HTMLImageElement>('img[loading="eager"]')];
  await Promise.race([
    Promise.all(
      photos.map((photo) =>
        Promise.resolve()
          .then(() => photo.decode())
          .catch(() => undefined),
      ),
    ),
    new Promise((resolve) => setTimeout(resolve, imageWaitMs)),
  ]);
  endFirstScreen();
}

/** For tests: back to a page that has not started. */
export function resetFirstScreen(): void {
  const state = handover();
  state.earlyAnswers.clear();
  state.earlyAnswerTaken = false;
  state.painted?.screen.remove();
  state.painted = undefined;
  state.over = false;
  state.appMayStart = undefined;
}
