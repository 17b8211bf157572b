import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { catalogue } from "./catalogue-text";
import { accessTokenOf, memberApi, signIn, solidPng, underServiceWorker } from "./support";

// Installing and working offline: the service worker is what these journeys are about.
test.use({ serviceWorkers: "allow" });

/**
 * What a request made by the page gets: its status, or "failed" when no answer came (offline,
 * nothing kept). Past the browser's own HTTP cache (which keeps a photo for its cookie's few
 * minutes, ADR 0018), so only the network or the service worker can answer.
 */
function fetchFromPage(page: Page, url: string, token?: string): Promise<number | "failed"> {
  return page.evaluate(
    async ([url, token]) => {
      try {
        const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
        const response = await fetch(url, { headers, cache: "no-store" });
        return response.status;
      } catch {
        return "failed" as const;
      }
    },
    [url, token] as const,
  );
}

test("the app installs, reads a viewed memory offline, and keeps nothing of the member's once signed out", async ({
  page,
  context,
}) => {
  // Installable: a manifest with the name, the standalone display and icons that load.
  await page.goto("/auth");
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute("href");
  expect(manifestHref).toBe("/manifest.webmanifest");
  const manifestResponse = await page.request.get(manifestHref!);
  expect(manifestResponse.headers()["content-type"]).toContain("application/manifest+json");
  const manifest = (await manifestResponse.json()) as {
    name: string;
    start_url: string;
    display: string;
    icons: Array<{ src: string; sizes: string; purpose?: string }>;
  };
  expect(manifest).toMatchObject({ name: "Memory Box", start_url: "/", display: "standalone" });
  expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(["192x192", "512x512"]));
  expect(manifest.icons.some((icon) => icon.purpose === "maskable")).toBe(true);
  for (const icon of manifest.icons) {
    const response = await page.request.get(icon.src);
    expect(response.status(), icon.src).toBe(200);
    expect(response.headers()["content-type"], icon.src).toBe("image/png");
  }
  // The worker's script is revalidated on every check, never kept like the hashed assets.
  const worker = await page.request.get("/sw.js");
  expect(worker.status()).toBe(200);
  expect(worker.headers()["cache-control"]).toBe("no-cache");

  await signIn(page, "pwa");
  const api = await memberApi(page, page.request);
  const run = Date.now().toString(36);
  const photo = await api.uploadPhoto(await solidPng(64, 48, [200, 120, 40]));
  const memory = await api.createMemory({ title: `Kept for the train ${run}`, memory_date: "2024-07-13", photo_ids: [photo.id] });

  // The worker registers once the page has loaded, and controls the page after a reload.
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  // The member reads the memory, its photos included.
  await page.goto(`/memory/${memory.id}`);
  const heading = page.getByRole("heading", { level: 1, name: `Kept for the train ${run}` });
  await expect(heading).toBeVisible();
  const photos = page.getByRole("region", { name: "Photos" }).getByRole("img");
  await expect(photos.first()).toHaveAttribute("data-loaded", "true");
  await expect(page.getByText("You are offline.")).toHaveCount(0);

  // Offline: the page opens again from what the device kept, and says so.
  await context.setOffline(true);
  await page.reload();
  await expect(heading).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "You are offline. Showing what this device has kept." })).toBeVisible();
  await expect(photos.first()).toHaveAttribute("data-loaded", "true");
  const token = await accessTokenOf(page);
  expect(await fetchFromPage(page, `/api/v1/memories/${memory.id}`, token)).toBe(200);
  // Kept for the member's token only: the same request without it gets nothing from the device.
  expect(await fetchFromPage(page, `/api/v1/memories/${memory.id}`)).toBe("failed");
  const photoUrl = await photos.first().getAttribute("src");
  expect(photoUrl).toMatch(/^\/storage\/v1\/object\/authenticated\/memory-photos\//);
  expect(await fetchFromPage(page, photoUrl!)).toBe(200);

  // Back online, the member signs out: every copy kept for them goes.
  await context.setOffline(false);
  await page.goto("/");
  await expect(page.getByText("You are offline.")).toHaveCount(0);
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect
    .poll(() => page.evaluate(async () => (await caches.keys()).filter((name) => !name.startsWith("workbox-precache"))))
    .toEqual([]);

  // Offline again, nothing of the member's is served: not the memory (even to the old token), not its photo.
  await context.setOffline(true);
  expect(await fetchFromPage(page, `/api/v1/memories/${memory.id}`)).toBe("failed");
  expect(await fetchFromPage(page, `/api/v1/memories/${memory.id}`, token)).toBe("failed");
  expect(await fetchFromPage(page, `/api/v1/memories`, token)).toBe("failed");
  expect(await fetchFromPage(page, photoUrl!)).toBe("failed");
  // The app itself still opens (its shell is no one's), at the sign-in screen.
  await page.goto(`/memory/${memory.id}`);
  await expect(page).toHaveURL(/\/auth\?next=/);
  await expect(page.getByRole("tab", { name: "Sign In" })).toBeVisible();
  await expect(page.getByText(`Kept for the train ${run}`)).toHaveCount(0);
});

/** The paths of the catalogue parts the worker keeps for languages other than English. */
function keptLanguageFiles(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    if (!(await caches.has("memory-box-languages"))) return [];
    const keys = await (await caches.open("memory-box-languages")).keys();
    return keys.map((request) => new URL(request.url).pathname).sort();
  });
}

test("the app opens offline in the browser's language, and in one chosen on the device once it was read in it", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, locale: "de-DE", serviceWorkers: "allow" });
  const page = await context.newPage();
  // The worker names every language's parts; it keeps only those of the languages read here.
  const workerSource = await (await page.request.get("/sw.js")).text();
  const partsOf = (locale: string) => [...new Set(workerSource.match(new RegExp(`assets/messages-${locale}-[\\w-]+\\.js`, "g")))];
  expect(partsOf("de").length).toBeGreaterThan(1);

  await page.goto("/auth");
  await expect(page.locator("html")).toHaveAttribute("lang", "de");
  await underServiceWorker(page);
  // The browser's language is kept from the install on: every part, not only the screen's.
  await expect
    .poll(() => keptLanguageFiles(page))
    .toEqual(
      partsOf("de")
        .map((file) => `/${file}`)
        .sort(),
    );

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole("tab", { name: catalogue("de")["auth.tab.signIn"] })).toBeVisible();

  // French chosen on this device (as Settings keeps it): its parts come through the worker, which keeps them all.
  await context.setOffline(false);
  await page.evaluate(() => localStorage.setItem("memory-box-locale", "fr"));
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  const french = partsOf("fr").map((file) => `/${file}`);
  await expect
    .poll(async () => (await keptLanguageFiles(page)).filter((file) => french.includes(file)).length)
    .toBe(french.length);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole("tab", { name: catalogue("fr")["auth.tab.signIn"] })).toBeVisible();
  await context.close();
});
