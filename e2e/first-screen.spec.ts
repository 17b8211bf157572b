import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { accessTokenOf, greeting, localDate, memberApi, signIn, solidPng } from "./support";

/**
 * Home's first screen painted before the app's bundle (ADR 0026): what a member sees at once,
 * that the app then takes over with one list request and nothing moving, and that a signed-out
 * visitor gets nothing private.
 */

/** Records, in the page, what the painted first screen showed and every layout shift. */
async function watchFirstScreen(page: Page, { dark = false } = {}): Promise<void> {
  await page.addInitScript((dark) => {
    const seen = { titles: [] as string[], photos: [] as string[], photosLoaded: 0, shift: 0, onThisDay: false };
    (window as unknown as { firstScreenSeen: typeof seen }).firstScreenSeen = seen;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>)
        if (!entry.hadRecentInput) seen.shift += entry.value;
    }).observe({ type: "layout-shift", buffered: true });
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.removedNodes) {
          if (!(node instanceof HTMLElement) || node.id !== "first-screen") continue;
          seen.titles = [...node.querySelectorAll("h2 a")].map((link) => link.textContent ?? "");
          seen.onThisDay = node.querySelector('[aria-labelledby="on-this-day-heading"]') !== null;
          const photos = [...node.querySelectorAll("img")];
          seen.photos = photos.map((photo) => photo.getAttribute("src") ?? "");
          seen.photosLoaded = photos.filter((photo) => photo.complete && photo.naturalWidth > 0).length;
        }
    }).observe(document, { childList: true, subtree: true });
    // Dark mode is a class on <html> (index.css), which does not exist yet when this runs.
    if (dark)
      new MutationObserver((_records, observer) => {
        if (!document.documentElement) return;
        document.documentElement.classList.add("dark");
        observer.disconnect();
      }).observe(document, { childList: true });
  }, dark);
}

const seenOf = (page: Page) =>
  page.evaluate(
    () =>
      (
        window as unknown as {
          firstScreenSeen: { titles: string[]; photos: string[]; photosLoaded: number; shift: number; onThisDay: boolean };
        }
      ).firstScreenSeen,
  );

for (const [width, dark] of [
  [1280, false],
  [375, true],
] as const) {
  test(`a member's first screen shows their memories at once, and the app takes it over with one list request before its live stream and no shift (${width} px${dark ? ", dark" : ""})`, async ({
    page,
    request,
  }) => {
    const email = await signIn(page, width === 1280 ? "first-screen-wide" : "first-screen-narrow");
    const run = `run${Date.now().toString(36)}`;
    const api = await memberApi(page, request);
    const photo = await api.uploadPhoto(await solidPng(64, 48, [200, 120, 80]));
    await api.createMemory({
      title: `Harbour ${run}`,
      content: "Boats at dusk.",
      memory_date: "2024-03-02",
      tags: [run],
      photo_ids: [photo.id],
    });
    // Nothing but a title and a date: dated (the day before), not undated, because undated memories
    // come last, past the first screen once other journeys have filled the member's list.
    await api.createMemory({ title: `Garden ${run}`, content: null, memory_date: "2024-03-01", tags: null });
    const token = await accessTokenOf(page);

    {
      const member = await page.context().newPage();
      await member.setViewportSize({ width, height: 800 });
      await watchFirstScreen(member, { dark });
      const apiRequests: string[] = [];
      member.on("request", (sent) => {
        const { pathname } = new URL(sent.url());
        if (pathname === "/api/v1/memories" || pathname === "/api/v1/events") apiRequests.push(pathname);
      });
      const html = await member.goto("/");
      // The page and its first script are the same for everyone: no token, no memory, no address.
      const firstScript = await member.locator('script[src*="first-screen"]').getAttribute("src");
      for (const body of [await html!.text(), await (await request.get(firstScript!)).text()]) {
        for (const secret of [token, run, email]) expect(body).not.toContain(secret);
      }

      await expect(member.locator("#root").getByRole("link", { name: `Harbour ${run}` })).toBeVisible();
      await expect(member.locator("#first-screen")).toHaveCount(0);
      const seen = await seenOf(member);
      expect(seen.titles).toContain(`Harbour ${run}`);
      expect(seen.titles).toContain(`Garden ${run}`);
      // The painted photo came through the photo cookie the early list answer set (ADR 0018).
      expect(seen.photos).toContain(photo.thumbnail_url);
      expect(seen.photosLoaded).toBeGreaterThan(0);
      expect(seen.shift).toBe(0);
      // One list request until the app's live stream opens; then one more at most, for what changed meanwhile.
      await expect.poll(() => apiRequests.includes("/api/v1/events")).toBe(true);
      expect(apiRequests[0]).toBe("/api/v1/memories");
      expect(apiRequests.indexOf("/api/v1/events")).toBe(1);
      expect(apiRequests.filter((pathname) => pathname === "/api/v1/memories").length).toBeLessThanOrEqual(2);
      await expect(greeting(member)).toBeVisible();
      await member.close();
    }
  });
}

test("with memories of this day in earlier years, the first screen paints 'On this day' too, and nothing moves when the app takes over", async ({
  page,
}) => {
  await signIn(page, "first-screen-on-this-day");
  const api = await memberApi(page, page.request);
  const photo = await api.uploadPhoto(await solidPng(64, 48, [90, 60, 160]));
  await api.createMemory({
    title: `Two years ago today ${Date.now().toString(36)}`,
    memory_date: localDate(2),
    photo_ids: [photo.id],
  });

  const member = await page.context().newPage();
  await watchFirstScreen(member);
  await member.goto("/");
  await expect(member.locator("#root").getByRole("region", { name: "On this day" })).toBeVisible();
  await expect(member.locator("#first-screen")).toHaveCount(0);
  const seen = await seenOf(member);
  expect(seen.onThisDay).toBe(true);
  expect(seen.shift).toBe(0);
  await member.close();
});

test("a signed-out visitor sees nothing private and no request is made for them", async ({ browser }) => {
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await watchFirstScreen(visitor);
  const apiRequests: string[] = [];
  visitor.on("request", (sent) => {
    if (new URL(sent.url()).pathname.startsWith("/api/v1/memories")) apiRequests.push(sent.url());
  });
  await visitor.goto("/");
  await expect(visitor.getByText("Welcome to Memory Box")).toBeVisible();
  expect(apiRequests).toEqual([]);
  expect((await seenOf(visitor)).titles).toEqual([]);
  await expect(visitor.locator("#first-screen")).toHaveCount(0);
  await context.close();
});

test("an expired stored session paints nothing early; the app refreshes it and shows home", async ({ page }) => {
  await signIn(page, "first-screen-expired");
  await page.evaluate(() => {
    const stored = JSON.parse(localStorage.getItem("memory-box-auth")!) as { expires_at: number };
    localStorage.setItem("memory-box-auth", JSON.stringify({ ...stored, expires_at: Math.floor(Date.now() / 1000) - 5 }));
  });
  const member = await page.context().newPage();
  await watchFirstScreen(member);
  await member.goto("/");
  await expect(greeting(member)).toBeVisible();
  expect((await seenOf(member)).titles).toEqual([]);
});
