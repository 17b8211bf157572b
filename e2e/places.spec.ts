import type { Page } from "@playwright/test";
import sharp from "sharp";
import { expect, test } from "./fixtures";
import { expectAccessible, memberApi, signIn } from "./support";
import { todaysShare } from "./run-share";

/*
 * The collection's map (issue #32). The servers of the journeys name no map style (MAP_STYLE_URL),
 * so the map is the embedded Natural Earth one, drawn from the app's own files. The collection is
 * shared by the journeys of a server, which may run in any order: each journey places its memories
 * on islands far out at sea and far from each other's (Pitcairn, the Kerguelen Islands, Tristan da
 * Cunha, the Seychelles; the last in a phone's first view), where no other journey's place is, so that what it counts is its own at the
 * map's first zoom.
 */

const pitcairn = { name: "Adamstown", latitude: -25.066, longitude: -130.1 };
const kerguelen = { name: "Port-aux-Français", latitude: -49.35, longitude: 70.22 };
const tristan = { name: "Edinburgh of the Seven Seas", latitude: -37.067, longitude: -12.311 };
const seychelles = { name: "Victoria", latitude: -4.62, longitude: 55.45 };

/** Requests that left the app's own server, and the Content-Security-Policy's refusals, from now on. */
async function watchOutside(page: Page) {
  const outside: string[] = [];
  const origin = new URL(page.url()).origin;
  await page.route(
    (url) => url.origin !== origin,
    async (route) => {
      outside.push(route.request().url());
      await route.abort("internetdisconnected");
    },
  );
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return {
    outside,
    violations: () => page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? []),
  };
}

/**
 * How many colours the map's canvas shows, sampled, with the marks and controls above it hidden:
 * water alone is one, land, coasts and borders over it more.
 */
async function coloursOnMap(page: Page): Promise<number> {
  const shot = await page
    .getByTestId("places-map")
    .locator("canvas")
    .screenshot({ style: ".maplibregl-marker, .maplibregl-control-container { visibility: hidden !important; }" });
  const { data, info } = await sharp(shot).raw().toBuffer({ resolveWithObject: true });
  const colours = new Set<string>();
  for (let offset = 0; offset < data.length; offset += info.channels * 53)
    colours.add(`${data[offset]},${data[offset + 1]},${data[offset + 2]}`);
  return colours.size;
}

test("a memory's place is a mark on the map that opens it, and another member's new memory appears there live", async ({
  page,
}) => {
  await signIn(page, "places");
  const api = await memberApi(page, page.request);
  const run = Date.now().toString(36);
  const placed = await api.createMemory({ title: `Island picnic ${run}`, memory_date: "2024-06-01", place: pitcairn });

  // Home's painted first screen (ADR 0026) has the same link until the app replaces it.
  await expect(page.locator("#first-screen")).toHaveCount(0);
  await page.getByRole("link", { name: "Places" }).click();
  await expect(page).toHaveURL(/\/places$/);
  await expect(page.getByRole("heading", { level: 1, name: "Places" })).toBeVisible();
  const mark = page.getByRole("link", { name: `Island picnic ${run}, Adamstown` });
  await expect(mark).toBeVisible();
  await expectAccessible(page, "places");

  // Added elsewhere while the map is open: the live stream brings its mark.
  await api.createMemory({ title: `Elephant seals ${run}`, place: kerguelen });
  await expect(page.getByRole("link", { name: `Elephant seals ${run}, Port-aux-Français` })).toBeVisible();

  await mark.click();
  await expect(page).toHaveURL(new RegExp(`/memory/${placed.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: `Island picnic ${run}` })).toBeVisible();
});

test("a photo's location is offered as the memory's place; taken, the memory's page shows it and lists the memories near it", async ({
  page,
}) => {
  await signIn(page, "places");
  const title = `Palace gardens ${Date.now().toString(36)}`;
  // Taken at 38°48' N, 9°22'48" W: the town of Sintra, Portugal.
  const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#7a9" } })
    .jpeg()
    .withExif({
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "38/1 48/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "9/1 22/1 48/1" },
    })
    .toBuffer();

  await expect(page.locator("#first-screen")).toHaveCount(0);
  await page.getByRole("button", { name: "Add Memory" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add Memory" });
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByLabel("Photos").setInputFiles([{ name: "IMG_2001.JPG", mimeType: "image/jpeg", buffer: photo }]);
  // Nothing is set until the member says so.
  await expect(dialog.getByText("Taken in Sintra, Portugal — use this place?")).toBeVisible({ timeout: 20_000 });
  await expect(dialog.getByRole("button", { name: "Remove place" })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Use this place" }).click();
  await expect(dialog.getByLabel("Place", { exact: true })).toHaveValue("Sintra");
  await dialog.getByRole("button", { name: "Save Memory" }).click();
  await expect(dialog).toBeHidden();

  // Undated, it is listed after every dated memory of the shared collection: found by its title.
  await page.getByRole("searchbox", { name: "Search memories" }).fill(title);
  await expect(page.getByText(/^1 of \d+ memories$/)).toBeVisible();
  await page.getByRole("link", { name: title }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByText("Sintra, Portugal")).toBeVisible();
  await page.getByRole("link", { name: "Memories near here" }).click();
  await expect(page.getByRole("button", { name: "Clear filter: Near Sintra" })).toBeVisible();
  await expect(page.getByRole("link", { name: title })).toBeVisible();
});

test("with no style named and no network beyond the app's server, the embedded world map still draws, within the page's CSP", async ({
  page,
}) => {
  await signIn(page, "places");
  const api = await memberApi(page, page.request);
  await api.createMemory({ title: `Offshore ${Date.now().toString(36)}`, place: tristan });
  const watch = await watchOutside(page);
  const workers: string[] = [];
  page.on("worker", (worker) => workers.push(worker.url()));

  await page.goto("/places");
  await expect(page.getByRole("region", { name: "Map of where your memories happened" })).toBeVisible();
  await expect(page.getByRole("link", { name: /, Edinburgh of the Seven Seas$/ }).first()).toBeVisible();
  // Land, coast and borders over the water: more than the one colour of an empty canvas.
  await expect.poll(() => coloursOnMap(page), { timeout: 20_000 }).toBeGreaterThan(3);
  await expect(page.locator(".maplibregl-ctrl-attrib-inner")).toContainText("Made with Natural Earth");

  expect(watch.outside).toEqual([]);
  expect(await watch.violations()).toEqual([]);
  // MapLibre's worker is the app's own file, not a blob: or data: one.
  expect(workers.length).toBeGreaterThan(0);
  for (const url of workers) expect(new URL(url).origin).toBe(new URL(page.url()).origin);
});

test("the map at a phone's width or a desktop's, light or dark, and in Arabic: a cluster's memories in a sheet, axe clean", async ({
  page,
}) => {
  await signIn(page, "places");
  const api = await memberApi(page, page.request);
  const run = Date.now().toString(36);
  // Two memories a few hundred metres apart: one mark with their count at the map's first zoom.
  const [first] = await Promise.all([
    api.createMemory({ title: `Harbour ${run}`, place: { ...seychelles, name: `Harbour ${run}` } }),
    api.createMemory({
      title: `Hill ${run}`,
      place: { ...seychelles, latitude: seychelles.latitude + 0.004, name: `Hill ${run}` },
    }),
  ]);

  // A phone in light or a desktop in dark, by the day; both in the full matrix (e2e/run-share.ts).
  for (const [width, scheme] of todaysShare([
    [375, "light"],
    [1280, "dark"],
  ] as const)) {
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto("/places");
    const cluster = page.getByRole("button", { name: new RegExp(`^2 memories around (Harbour|Hill) ${run}`) });
    await expect(cluster).toBeVisible();
    await expectAccessible(page, `places ${width} ${scheme}`);
    // The cluster's mark is reached with the keyboard and lists its memories.
    await cluster.focus();
    await page.keyboard.press("Enter");
    const panel = page.getByRole("complementary", { name: /memories around/ });
    await expect(panel.getByRole("link", { name: new RegExp(`Harbour ${run}`) })).toBeVisible();
    await expect(panel.getByText("Place names from GeoNames (CC BY 4.0)")).toBeVisible();
    await expectAccessible(page, `places ${width} ${scheme} with a cluster's list`);
    await page.keyboard.press("Escape");
    await expect(panel).toBeHidden();
    await expect(cluster).toBeFocused();
  }

  // Right to left: the zoom buttons on the left, the page mirrored.
  await page.evaluate(() => localStorage.setItem("memory-box-locale", "ar"));
  await page.goto("/places");
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await expect(page.getByRole("heading", { level: 1, name: "الأماكن" })).toBeVisible();
  await expect(page.locator(".maplibregl-ctrl-top-left .maplibregl-ctrl-zoom-in")).toBeVisible();
  await expectAccessible(page, "places in Arabic");

  await page.getByRole("button", { name: new RegExp(`(Harbour|Hill) ${run}`) }).click();
  await expect(page.getByRole("complementary").getByText("أسماء الأماكن من GeoNames", { exact: false })).toBeVisible();
  await page
    .getByRole("complementary")
    .getByRole("link", { name: new RegExp(`Harbour ${run}`) })
    .click();
  await expect(page).toHaveURL(new RegExp(`/memory/${first.id}$`));
});
