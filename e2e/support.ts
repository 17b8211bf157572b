import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Memory, MemoryInput, Photo } from "@memory-box/contract";
import type axeCore from "axe-core";
import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { SignJWT } from "jose";
import sharp from "sharp";
import { type MemberKey, preparedMember } from "./members";
import { type E2eServer, serverOf, serviceRoleSecret } from "./servers";

/** What the browser journeys share: the members prepared for them, invitations, the outbox, axe. */

export const password = "correct horse battery staple";
/** Where the web app keeps its auth-js session. */
export const authKey = "memory-box-auth";

/** The server of the running journey's worker (e2e/servers.ts). */
export function currentServer(): E2eServer {
  return serverOf(test.info().parallelIndex);
}

/** A fresh address per run, so reruns against a kept data folder never collide. */
export function freshEmail(name: string, domain = "example.com"): string {
  return `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@${domain}`;
}

/** A service-role token for the admin API, signed with the journeys' servers' HS256 secret (AUTH_JWT_SECRET). */
export function serviceToken(): Promise<string> {
  return new SignJWT({ role: "service_role" })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt()
    .setExpirationTime("1d")
    .sign(new TextEncoder().encode(serviceRoleSecret));
}

interface StorageState {
  cookies: Parameters<ReturnType<Page["context"]>["addCookies"]>[0];
  origins: { origin: string; localStorage: { name: string; value: string }[] }[];
}

function storedSession(key: MemberKey): { email: string; storageState: string; state: StorageState } {
  const { email, storageState } = preparedMember(currentServer(), key);
  return { email, storageState, state: JSON.parse(fs.readFileSync(storageState, "utf8")) as StorageState };
}

/** The stored auth-js session of the prepared member `key`, as the page keeps it in localStorage. */
export function storedSessionOf(key: MemberKey): string {
  return storedSession(key).state.origins[0]!.localStorage.find((entry) => entry.name === authKey)!.value;
}

/**
 * Puts `email` on the invitation list as an owner does, from Members (`POST /api/v1/members/invitations`),
 * as the prepared owner `keeper`: for the journeys about signing up, which the address then does on the page.
 */
export async function invite(request: APIRequestContext, email: string): Promise<void> {
  const { access_token: token } = JSON.parse(storedSessionOf("keeper")) as { access_token: string };
  const response = await request.post(`${currentServer().url}/api/v1/members/invitations`, {
    headers: { authorization: `Bearer ${token}` },
    data: { email },
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
}

/**
 * Signs `page` in as the prepared member `key` with its stored session (the global setup made it,
 * e2e/members.setup.ts), then opens home: the greeting is there. Returns the member's address.
 */
export async function signIn(page: Page, key: MemberKey): Promise<string> {
  const { email, state } = storedSession(key);
  await page.context().addCookies(state.cookies);
  // Any page of the app's origin will do to write its storage; this one has no script.
  await page.goto("/api/health");
  await page.evaluate((entries) => {
    for (const { name, value } of entries) localStorage.setItem(name, value);
  }, state.origins[0]!.localStorage);
  await openHome(page, () => page.goto("/"));
  return email;
}

/**
 * Home's greeting ("Welcome back, …"), among visible elements: the first screen's copy of it
 * (ADR 0026) stays in the page, hidden, once the app has taken over.
 */
export function greeting(page: Page) {
  return page.getByText(/^Welcome back, /).filter({ visible: true });
}

/**
 * Opens home and waits until a member could use it: the greeting shown and the app's live stream
 * open, so what another device changes from then on reaches this page.
 */
async function openHome(page: Page, open: () => Promise<unknown>): Promise<void> {
  const live = page.waitForResponse((response) => new URL(response.url()).pathname === "/api/v1/events");
  await open();
  await live;
  await expect(greeting(page)).toBeVisible();
}

/** Waits until the service worker controls the page (it registers after the first load; a reload hands it the page). */
export async function underServiceWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/**
 * A browser of its own for the prepared member `key`, opened from its stored session at `at`: on
 * home (the default) once the greeting is there.
 */
export async function memberPage(browser: Browser, key: MemberKey, at = "/"): Promise<Page> {
  const context = await browser.newContext({ storageState: storedSession(key).storageState });
  const page = await context.newPage();
  if (at === "/") await openHome(page, () => page.goto(at));
  else await page.goto(at);
  return page;
}

/** The address of the prepared member `key` on this worker's server. */
export function emailOf(key: MemberKey): string {
  return storedSession(key).email;
}

/** The outbox of this worker's server: the mails it would have sent. */
function outbox(): string {
  return path.join(currentServer().dataDir, "outbox");
}

/** Soft line breaks ("=\r\n") removed, then "=XX" bytes decoded as UTF-8. */
function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The newest mail in the outbox addressed to `email`, decoded; undefined while none has arrived. */
export function newestMailTo(email: string): string | undefined {
  const folder = outbox();
  const mails = fs.existsSync(folder)
    ? fs
        .readdirSync(folder)
        .filter((name) => name.endsWith(".eml"))
        .sort()
        .reverse()
    : [];
  for (const name of mails) {
    const mail = decodeQuotedPrintable(fs.readFileSync(path.join(folder, name), "utf8"));
    if (mail.includes(email)) return mail;
  }
  return undefined;
}

/**
 * How long a journey waits for a mail. The outbox's worker sends it after the answer (ADR 0077),
 * within a fraction of a second on a quiet machine; the server's own poll (every 5 s) takes any
 * mail a wake missed, and a busy CI machine's disk can hold the written file's flush for seconds.
 */
const mailWait = { timeout: 30_000 };

/** The newest mail to `email` once it contains `text`, waiting for it to arrive. */
export async function mailContaining(email: string, text: string): Promise<string> {
  let mail = "";
  await expect
    .poll(() => (mail = newestMailTo(email) ?? ""), { ...mailWait, message: `a mail to ${email} in ${outbox()} with "${text}"` })
    .toContain(text);
  return mail;
}

/** `pattern`'s first group in the newest mail to `email`, waiting for the mail to arrive. */
export async function fromNewestMail(email: string, pattern: RegExp): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        found = pattern.exec(newestMailTo(email) ?? "")?.[1];
        return found;
      },
      { ...mailWait, message: `a mail to ${email} in ${outbox()} matching ${pattern}` },
    )
    .toBeTruthy();
  return found!;
}

/** The confirmation link from the newest mail in the outbox addressed to `email`. */
export async function confirmationLink(email: string): Promise<string> {
  return (await fromNewestMail(email, /(https?:\/\/[^\s"<>]+\/auth\/v1\/verify\?[^\s"<>]+)/)).replaceAll("&amp;", "&");
}

export async function fillCredentials(page: Page, email: string, secret: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(secret);
}

/** The access token the page keeps in localStorage. */
export async function accessTokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(
    (key) => (JSON.parse(localStorage.getItem(key) ?? "{}") as { access_token?: string }).access_token,
    authKey,
  );
  expect(token).toBeTruthy();
  return token!;
}

/** axe-core's browser build, put in a page once per document (see `expectAccessible`). */
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * Axe finds no problem on what the page shows now: none at all, or (`"serious"`) none rated
 * serious or critical. Every rule runs, as axe's own runners do; axe is put in the page once per
 * document (a journey checks a page several times, and parsing axe each time cost more than a
 * rule), and asked for violations only.
 */
export async function expectAccessible(page: Page, screen: string, level: "all" | "serious" = "all"): Promise<void> {
  // Home's painted first screen (ADR 0026) is inert until the app replaces it: the app's is checked.
  await expect(page.locator("#first-screen")).toHaveCount(0);
  // What is still fading in (a toast) has not its final contrast yet: checked once it has.
  await animationsSettled(page);
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as { axe: typeof axeCore };
    // A toast on its way out (its timer ran out while the page was read) fades to nothing: it is
    // leaving, not shown, so its fading contrast is not the page's.
    const results = await axe.run({ exclude: [['[data-sonner-toast][data-removed="true"]']] }, { resultTypes: ["violations"] });
    return results.violations;
  });
  const counted =
    level === "all"
      ? violations
      : violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(
    counted.map(
      (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    ),
    screen,
  ).toEqual([]);
}

/** The member's API, with the access token the page keeps in localStorage. */
export async function memberApi(page: Page, request: APIRequestContext) {
  const { origins } = await page.context().storageState();
  const stored = origins.flatMap((origin) => origin.localStorage).find((entry) => entry.name === authKey)?.value;
  const token = (JSON.parse(stored ?? "{}") as { access_token?: string }).access_token;
  expect(token).toBeTruthy();
  return apiWithToken(request, token!);
}

/** The API of the prepared member `key`, with its stored session, for what a journey sets up before opening a page. */
export function memberApiAs(request: APIRequestContext, key: MemberKey) {
  return apiWithToken(request, (JSON.parse(storedSessionOf(key)) as { access_token: string }).access_token);
}

function apiWithToken(request: APIRequestContext, token: string) {
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async uploadPhoto(image: Buffer): Promise<Photo> {
      const response = await request.post("/api/v1/photos", {
        headers,
        multipart: { file: { name: "photo.png", mimeType: "image/png", buffer: image } },
      });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()) as Photo;
    },
    async memory(id: string): Promise<Memory> {
      const response = await request.get(`/api/v1/memories/${id}`, { headers });
      expect(response.status(), await response.text()).toBe(200);
      return (await response.json()) as Memory;
    },
    async createMemory(input: MemoryInput): Promise<Memory> {
      const response = await request.post("/api/v1/memories", { headers, data: input });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()) as Memory;
    },
    /** Deletes a memory the journey made (the collection is shared with the journeys running beside it). */
    async deleteMemory(id: string): Promise<void> {
      const response = await request.delete(`/api/v1/memories/${id}`, { headers });
      expect(response.status(), await response.text()).toBe(204);
    },
  };
}

/** A decodable PNG of one colour, made here so the journeys need no image files. */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}

/**
 * A day of next year, the last year a memory may be dated in (issue #34), as "YYYY-MM-DD": the
 * journeys that need their memories to lead the shared collection date them there, each in a
 * stretch of its own (timeline January–March and December 30, screens August–October, timeline's
 * tagged October 15, offline November 7–8, comments November 20, neighbours December 6–8).
 */
export function aheadDate(month: number, day: number): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${aheadYear}-${pad(month)}-${pad(day)}`;
}

/** Next year: the year of `aheadDate`. */
export const aheadYear = new Date().getFullYear() + 1;

/** This device's date `years` years back and `days` days off, as "YYYY-MM-DD" (a memory's date). */
export function localDate(years: number, days = 0): string {
  const date = new Date();
  date.setFullYear(date.getFullYear() - years);
  date.setDate(date.getDate() + days);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Until what is animating (a fade, the colours' transition) has reached its end; endless ones (a spinner) are not waited for. */
export async function animationsSettled(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(Number(animation.effect?.getComputedTiming().endTime)))
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

/**
 * Screenshots of the page for a person to look at, at a phone's width (375, the whole page) and a
 * desktop's (1280), light and dark, in the journey's results (`<name>-<width>-<scheme>.png`); each
 * once the scheme's colours have settled. `before` runs before each picture (to scroll a part into
 * view). The page is left light at 1280 × 900.
 */
export async function screenshotsAtWidths(page: Page, name: string, before?: () => Promise<void>): Promise<void> {
  for (const [width, height] of [
    [375, 800],
    [1280, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await animationsSettled(page);
      await before?.();
      await page.screenshot({ path: test.info().outputPath(`${name}-${width}-${colorScheme}.png`), fullPage: width === 375 });
    }
  }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
}
