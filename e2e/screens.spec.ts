import type { Browser, Page, PlaywrightWorkerArgs } from "@playwright/test";
import type { E2eServer } from "./servers";
import sharp from "sharp";
import { pseudoLocale } from "@memory-box/messages";
import { journeyLocale, textsIn } from "./catalogue-text";
import { expect, test } from "./fixtures";
import { aheadDate, authKey, emailOf, expectAccessible, localDate, memberApiAs, storedSessionOf } from "./support";
import { dayOfYear, fullMatrix } from "./run-share";

/**
 * Every screen of Memory Box, light or dark, on a phone (375 px) or a desktop (1280 px): each is
 * checked with axe and saved as a screenshot with the test's output, for a person to look at
 * (nothing is compared). Two tests per theme and width, side by side: the screens signed out, and
 * the screens of one member signed in.
 *
 * A run takes one of the four (E2E_SCREENS=light-375, light-1280, dark-375 or dark-1280), by default
 * the day of the year's turn, so four days of CI see them all; E2E_SCREENS=all takes every one, and
 * a list (E2E_SCREENS=light-375,light-1280) those it names.
 * E2E_LOCALE=ar (any language of the catalogue) shows them in that language, as a browser set to it
 * asks for them; the screenshots' names end in the language. Without it, every other turn of four
 * days shows them in the pseudo-locale (en-XA: English framed, accented and 40 % longer), so that
 * a text too long for its place is seen. Every screen is checked for text cut off or pushed out of
 * the window (`clippedTexts`). Every run also shows home and a memory in Arabic on a phone, laid
 * out right to left (the last test).
 */

const configurations = (["light", "dark"] as const).flatMap((theme) =>
  ([375, 1280] as const).map((width) => ({ theme, width, name: `${theme}-${width}` })),
);
function chosenConfigurations(): typeof configurations {
  const chosen = process.env.E2E_SCREENS;
  if (chosen === "all" || (!chosen && fullMatrix)) return configurations;
  if (chosen) {
    const names = chosen.split(",");
    const named = configurations.filter((configuration) => names.includes(configuration.name));
    if (named.length !== names.length)
      throw new Error(
        `E2E_SCREENS=${chosen}: one of all, ${configurations.map((configuration) => configuration.name).join(", ")}`,
      );
    return named;
  }
  return [configurations[dayOfYear % configurations.length]!];
}

/** The screens' language: E2E_LOCALE, else English and the pseudo-locale in turns of four days. */
const screensLocale = process.env.E2E_LOCALE ? journeyLocale : dayOfYear % 8 < 4 ? "en" : pseudoLocale;
/** The page's words in the screens' language, found by their English (e2e/catalogue-text.ts). */
const t = textsIn(screensLocale);
const run = Date.now().toString(36);
// Dated next year (after March, which the timeline's journey counts), so they lead the list of a run of
// this spec alone and stay out of the other journeys' way; "On this day" needs a date in the past.
const titles = {
  lake: `Summer by the lake ${run}`,
  letters: `Letters from Grandma ${run}`,
  market: `Autumn market ${run}`,
  snow: `First snow ${run}`,
  apartment: `Our first apartment ${run}`,
};
let session = "";
let lakeId = "";

/** A soft diagonal gradient between two colours: enough like a photo to judge the cards by. */
async function gradientJpeg(width: number, height: number, from: number[], to: number[]): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const mix = (x / width + y / height) / 2;
      for (let channel = 0; channel < 3; channel++)
        pixels[(y * width + x) * 3 + channel] = Math.round(from[channel]! + (to[channel]! - from[channel]!) * mix);
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg()
    .toBuffer();
}

/** What the screen shows once its photos are in and nothing moves: every image loaded (or failed for good). */
async function settled(page: Page): Promise<void> {
  // Home's painted first screen (ADR 0026) is inert until the app replaces it: the app's is kept.
  await expect(page.locator("#first-screen")).toHaveCount(0);
  // Photos below the fold load as they near the viewport: asked for now instead, so the whole page has them.
  await page.evaluate(() => {
    for (const image of document.images) image.loading = "eager";
  });
  await expect.poll(() => page.evaluate(() => [...document.images].every((image) => image.complete))).toBe(true);
  // Dialogs and toasts animate in; the picture is of where they come to rest (spinners turn for ever).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
}

async function capture(page: Page, screen: string, { fullPage = true } = {}): Promise<void> {
  await settled(page);
  await expectAccessible(page, screen);
  expect(await clippedTexts(page), `${screen}: text cut off or out of the screen`).toEqual([]);
  await page.screenshot({ path: test.info().outputPath(`${screen}.png`), fullPage });
}

/**
 * The texts the screen cuts or pushes out of sight: the page wider than the window, or an element
 * whose own text is wider than its box where the box hides what overflows without an ellipsis.
 * Texts cut with an ellipsis (`truncate`) or clamped to lines are the layout's choice; a box that
 * scrolls shows the rest on scrolling.
 */
function clippedTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > window.innerWidth + 1) found.push(`the page is ${root.scrollWidth} px wide`);
    for (const element of document.body.querySelectorAll<HTMLElement>("*")) {
      const ownText = [...element.childNodes]
        .filter((node) => node.nodeType === Node.TEXT_NODE)
        .map((node) => node.textContent!.trim())
        .join(" ");
      // Left out: what is hidden from everyone, and what is there only for screen readers (a 1 px box).
      if (!ownText || element.closest("[aria-hidden=true]") || element.clientWidth <= 1) continue;
      const style = getComputedStyle(element);
      const hides = ["hidden", "clip"].includes(style.overflowX);
      const deliberate = style.textOverflow === "ellipsis" || style.webkitLineClamp !== "none";
      if (hides && !deliberate && element.scrollWidth > element.clientWidth + 1)
        found.push(`"${ownText.slice(0, 40)}" (${element.scrollWidth} px in ${element.clientWidth})`);
    }
    return found;
  });
}

// Ann (an owner) and Ben, prepared with their display names by the global setup (e2e/members.ts).
// Their memories are made once per worker (each worker has its own server), by the first screens
// test that needs them.
let collection: Promise<void> | undefined;
async function prepareCollection(playwright: PlaywrightWorkerArgs["playwright"], server: E2eServer): Promise<void> {
  const request = await playwright.request.newContext({ baseURL: server.url });
  const api = memberApiAs(request, "screens-ann");
  // Photo-sized enough for the cards and the viewer (the server makes the same renditions of any size).
  const photos = [];
  for (const [width, height, from, to] of [
    [600, 400, [236, 180, 120], [90, 140, 190]],
    [400, 600, [60, 110, 90], [210, 220, 170]],
    [600, 400, [250, 210, 160], [200, 90, 90]],
    [600, 450, [120, 160, 210], [240, 240, 230]],
    [600, 400, [70, 60, 110], [230, 150, 120]],
  ] as const)
    photos.push(await api.uploadPhoto(await gradientJpeg(width, height, [...from], [...to])));
  const lake = await api.createMemory({
    title: titles.lake,
    content: "Sandwiches on the jetty, the swans far too interested in them.\nWe stayed until the water turned gold.",
    memory_date: aheadDate(8, 20),
    tags: ["summer", "lake", "picnic", "family", "swans", "sun"],
    photo_ids: photos.map((photo) => photo.id),
  });
  lakeId = lake.id;
  await api.createMemory({
    title: titles.letters,
    content:
      "We found the box of her letters in the attic and read them aloud, one each, until it was dark. She wrote about the war, the bakery, and the boy who became our grandfather.",
    memory_date: aheadDate(9, 14),
    tags: ["family"],
  });
  await api.createMemory({
    title: titles.market,
    content: "Pumpkins, cider, and the scarf you still wear.",
    memory_date: aheadDate(9, 5),
    tags: ["autumn"],
    photo_ids: [(await api.uploadPhoto(await gradientJpeg(600, 400, [200, 120, 60], [250, 220, 150]))).id],
  });
  await api.createMemory({
    title: titles.snow,
    memory_date: aheadDate(10, 2),
    photo_ids: [
      (await api.uploadPhoto(await gradientJpeg(450, 600, [220, 230, 240], [130, 150, 180]))).id,
      (await api.uploadPhoto(await gradientJpeg(600, 400, [240, 240, 250], [160, 170, 200]))).id,
    ],
  });
  await api.createMemory({
    title: titles.apartment,
    content: "Two chairs, one lamp, and a view of the rooftops.",
    memory_date: localDate(4),
    photo_ids: [(await api.uploadPhoto(await gradientJpeg(600, 400, [180, 150, 130], [90, 70, 60]))).id],
  });

  // Both members answer the lake: a comment each and their reactions.
  const respond = async (member: "screens-ann" | "screens-ben", comment: string, emojis: string[]) => {
    const stored = storedSessionOf(member);
    const headers = { Authorization: `Bearer ${(JSON.parse(stored) as { access_token: string }).access_token}` };
    const sent = await request.post(`/api/v1/memories/${lakeId}/comments`, { headers, data: { body: comment } });
    expect(sent.status(), await sent.text()).toBe(201);
    for (const emoji of emojis) {
      const reacted = await request.put(`/api/v1/memories/${lakeId}/reactions/${encodeURIComponent(emoji)}`, { headers });
      expect(reacted.ok(), await reacted.text()).toBe(true);
    }
  };
  await respond("screens-ben", "The swans were definitely plotting something.", ["❤️", "😂"]);
  await respond("screens-ann", "Next year: more sandwiches.", ["❤️"]);

  session = storedSessionOf("screens-ann");
  await request.dispose();
}

/** A page of its own in the theme and width, and how its screens are kept. */
async function screenPage(browser: Browser, theme: "light" | "dark", width: 375 | 1280, locale = screensLocale) {
  // No service worker: every answer comes from the server, and the error page's failed chunk stays failed.
  // A language other than English is the browser's (navigator.languages and Accept-Language).
  const context = await browser.newContext({
    colorScheme: theme,
    viewport: { width, height: width === 375 ? 812 : 900 },
    serviceWorkers: "block",
    ...(locale === "en" ? {} : { locale }),
  });
  const page = await context.newPage();
  const named = locale === "en" ? `${theme}-${width}` : `${theme}-${width}-${locale}`;
  const shot = (screen: string, options?: { fullPage?: boolean }) => capture(page, `${screen}-${named}`, options);
  return { context, page, shot };
}

async function signedOutScreens(browser: Browser, theme: "light" | "dark", width: 375 | 1280): Promise<void> {
  const { context, page, shot } = await screenPage(browser, theme, width);
  await page.goto("/auth");
  await expect(page.getByRole("heading", { name: t("Welcome to Memory Box") })).toBeVisible();
  await shot("sign-in");
  // A refusal, told by a toast.
  await page.getByLabel(t("auth.email.label")).fill(`stranger-${run}@example.com`);
  await page.getByLabel(t("Password"), { exact: true }).fill("not a member's password");
  await page.getByRole("button", { name: t("auth.signIn.submit"), exact: true }).click();
  // The page's own words for the refusal, or the server's.
  await expect(page.getByText(t("invitation.denied")).or(page.getByText(t("error.email_not_invited")))).toBeVisible();
  await shot("sign-in-refused", { fullPage: false });
  await page.reload();
  await page.getByRole("tab", { name: t("auth.tab.signUp") }).click();
  await expect(page.getByRole("button", { name: t("auth.signUp.submit") })).toBeVisible();
  await shot("sign-up");
  await page.getByRole("tab", { name: t("auth.tab.signIn") }).click();
  await page.getByRole("button", { name: t("Email me a sign-in code") }).click();
  await page.getByLabel(t("auth.email.label")).fill(emailOf("screens-ann"));
  await page.getByRole("button", { name: t("Send sign-in code") }).click();
  await expect(page.getByRole("heading", { name: t("Enter the code from your email") })).toBeVisible();
  await shot("sign-in-code");
  await page.goto("/auth?view=forgot");
  await expect(page.getByRole("heading", { name: t("Reset your password") })).toBeVisible();
  await shot("forgot-password");
  await page.goto("/auth/reset");
  await expect(page.getByText(t("This page needs a password reset link."))).toBeVisible();
  await shot("set-password-without-link");

  // The error page: a screen whose code cannot be loaded (the 404 screen's chunk gone, as after a deploy).
  const goneChunk = /\/assets\/not-found-[\w-]+\.js$/;
  await page.route(goneChunk, (route) => route.fulfill({ status: 404, body: "" }));
  await page.goto("/nothing-here");
  await expect(page.getByRole("heading", { name: t("Something went wrong") })).toBeVisible();
  await shot("error-page");
  await page.unroute(goneChunk);
  await page.goto("/this/does/not/exist");
  await expect(page.getByText(t("Oops! Page not found"))).toBeVisible();
  await shot("not-found");
  await context.close();
}

async function signedInScreens(browser: Browser, theme: "light" | "dark", width: 375 | 1280): Promise<void> {
  const { context, page, shot } = await screenPage(browser, theme, width);
  // Signed in, with the member's stored session.
  await page.goto("/auth");
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [authKey, session] as const);

  // An empty collection: the shared one has memories, so its answers come back with them taken out.
  const emptied = (url: URL) => url.pathname === "/api/v1/memories" || url.pathname === "/api/v1/memories/on-this-day";
  await page.route(emptied, async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as Record<string, unknown>;
    const empty = "groups" in body ? { ...body, groups: [] } : { ...body, items: [], next_cursor: null, matched: 0, total: 0 };
    await route.fulfill({ response, json: empty });
  });
  await page.goto("/");
  await expect(page.getByRole("heading", { name: t("No memories yet") })).toBeVisible();
  await shot("home-empty");
  await page.unroute(emptied);

  // Loading: the list's answer held back until the screen waiting for it is captured.
  let answerList = () => {};
  const listHeld = new Promise<void>((resolve) => (answerList = resolve));
  const list = (url: URL) => url.pathname === "/api/v1/memories";
  await page.route(list, async (route) => {
    await listHeld;
    await route.continue();
  });
  // A query string: the app's own loading state, not the first screen painted early (which waits for the list too).
  await page.goto("/?loading");
  await expect(page.getByText(t("Loading your memories..."))).toBeVisible();
  await shot("home-loading");
  answerList();
  await expect(page.getByRole("heading", { name: titles.lake })).toBeVisible();
  await page.unroute(list);
  await expect(page.getByRole("region", { name: t("On this day") })).toBeVisible();
  await shot("home", { fullPage: false });
  await page.getByRole("searchbox").fill(`nothing like this ${run}`);
  await expect(page.getByRole("heading", { name: t("No memories found") })).toBeVisible();
  await shot("home-none-found");
  await page.getByRole("button", { name: t("Clear Filters") }).click();

  await page.getByRole("button", { name: t("Add Memory") }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await shot("add-memory", { fullPage: false });
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();

  await page.getByRole("button", { name: t("Edit {title}", { title: titles.lake }) }).click();
  await expect(page.getByRole("dialog").getByLabel(t("Title"))).toHaveValue(titles.lake);
  await shot("edit-memory", { fullPage: false });
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();

  await page.getByRole("link", { name: titles.lake }).click();
  await expect(page.getByRole("heading", { level: 1, name: titles.lake })).toBeVisible();
  await expect(page.getByText("The swans were definitely plotting something.")).toBeVisible();
  await expect(page.getByAltText(t("Memory photo {number}", { number: 5 }))).toBeVisible();
  await shot("detail");

  await page.getByRole("button", { name: t("Delete"), exact: true }).click();
  await expect(page.getByRole("alertdialog")).toBeVisible();
  await shot("delete-dialog", { fullPage: false });
  await page.getByRole("button", { name: t("Cancel") }).click();
  await expect(page.getByRole("alertdialog")).toBeHidden();

  await page.getByRole("button", { name: t("Edit"), exact: true }).click();
  await expect(page.getByRole("button", { name: t("Update Memory") })).toBeVisible();
  await shot("edit-memory-inline");

  await page.goto("/memory/00000000-0000-4000-8000-000000000000");
  await expect(page.getByText(t("Memory not found."))).toBeVisible();
  await shot("memory-not-found");

  await page.goto(`/memory/${lakeId}/photo/2`);
  await expect(page.getByRole("dialog")).toBeVisible();
  await shot("photo-viewer", { fullPage: false });

  await page.goto("/settings");
  await expect(page.getByRole("heading", { name: t("Profile") })).toBeVisible();
  await shot("account");
  await page.getByRole("link", { name: t("Members") }).click();
  await expect(page.getByRole("heading", { name: t("Members"), exact: true })).toBeVisible();
  await expect(page.getByText(t("Loading members..."))).toHaveCount(0);
  await shot("members");

  await context.close();
}

// Two tests a configuration, which two workers take side by side.
const language = screensLocale === "en" ? "" : `, in ${screensLocale}`;
for (const { theme, width } of chosenConfigurations()) {
  test(`every signed-out screen, ${theme}, ${width} px${language}: axe finds nothing, and a screenshot is kept`, async ({
    browser,
  }) => {
    await signedOutScreens(browser, theme, width);
  });
  test(`every member's screen, ${theme}, ${width} px${language}: axe finds nothing, and a screenshot is kept`, async ({
    browser,
    playwright,
    server,
  }) => {
    test.setTimeout(120_000);
    collection ??= prepareCollection(playwright, server);
    await collection;
    await signedInScreens(browser, theme, width);
  });
}

// Right to left (ADR 0052), in every run: home and a memory in Arabic on a phone, mirrored.
const arabic = textsIn("ar");
test("home and a memory in Arabic, 375 px: laid out right to left, axe finds nothing, screenshots kept", async ({
  browser,
  playwright,
  server,
}) => {
  collection ??= prepareCollection(playwright, server);
  await collection;
  const { context, page, shot } = await screenPage(browser, "light", 375, "ar");
  await page.goto("/auth");
  await page.evaluate(([key, value]) => localStorage.setItem(key, value), [authKey, session] as const);
  await page.goto("/");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { name: titles.lake })).toBeVisible();
  await expect(page.getByRole("region", { name: arabic("On this day") })).toBeVisible();
  // The search box's magnifier is at its start: the right.
  const magnifierAtStart = () =>
    page.getByRole("search").evaluate((search) => {
      const field = search.querySelector("input")!.getBoundingClientRect();
      return search.querySelector("svg")!.getBoundingClientRect().left > field.left + field.width / 2;
    });
  await expect.poll(magnifierAtStart).toBe(true);
  await shot("home", { fullPage: false });

  await page.getByRole("link", { name: titles.lake }).click();
  await expect(page.getByRole("heading", { level: 1, name: titles.lake })).toBeVisible();
  // "Back to Memories" at the right, its arrow turned to point right; the newer memory at the right, the older at the left.
  const back = page.getByRole("link", { name: arabic("Back to Memories") });
  expect((await back.boundingBox())!.x).toBeGreaterThan(375 / 2);
  expect(await back.locator("svg").evaluate((arrow) => getComputedStyle(arrow).scale)).toMatch(/^-1\b/);
  const previous = (await page.locator('a[rel="prev"]').boundingBox())!;
  const next = (await page.locator('a[rel="next"]').boundingBox())!;
  expect(previous.x).toBeGreaterThan(next.x);
  await shot("detail", { fullPage: false });
  await context.close();
});
