import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { aheadDate, fillCredentials, greeting, password, signIn, solidPng, underServiceWorker } from "./support";

// Installing and working offline: the service worker is what these journeys are about.
test.use({ serviceWorkers: "allow" });

/** Home's memory cards. */
const memories = (page: Page) => page.getByRole("list", { name: "Memories" }).getByRole("listitem");

test("a memory saved offline waits with its photo, survives a reload, and is added when the connection returns", async ({
  page,
  context,
}) => {
  await signIn(page, "queue");
  await underServiceWorker(page);
  // After the reload the painted first screen and the app may both hold the greeting for a moment:
  // the visible one counts, and the app's own screen is the one used from here on.
  await expect(greeting(page)).toBeVisible();
  await expect(page.locator("#first-screen")).toHaveCount(0);
  const run = Date.now().toString(36);
  const title = `Queued on the train ${run}`;

  await context.setOffline(true);
  await page.getByRole("button", { name: "Add Memory" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add Memory" });
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByLabel("Date").fill(aheadDate(11, 7));
  await dialog.getByLabel("Photos").setInputFiles({
    name: "window.png",
    mimeType: "image/png",
    buffer: await solidPng(64, 48, [40, 120, 200]),
  });
  await expect(dialog.getByText("window.png: waiting for connection")).toBeVisible();
  await dialog.getByRole("button", { name: "Save Memory" }).click();
  await expect(page.getByText("Saved on this device", { exact: true })).toBeVisible();
  await expect(dialog).toBeHidden();

  const queue = page.getByRole("region", { name: "Waiting to be added" });
  await expect(queue.getByText(title)).toBeVisible();
  await expect(queue.getByText("Waiting for connection")).toBeVisible();

  // Still offline, a reload opens the app from the device, and the memory still waits.
  await page.reload();
  await expect(queue.getByText(title)).toBeVisible();
  await expect(queue.getByText("Waiting for connection")).toBeVisible();

  // The connection returns: the photo uploads, the memory is added, the queue empties.
  await context.setOffline(false);
  await expect(page.getByText("Memory added!")).toBeVisible();
  await expect(queue).toBeHidden();
  const card = memories(page).filter({ hasText: title });
  await expect(card).toBeVisible();
  await expect(card.getByRole("img").first()).toHaveAttribute("data-loaded", "true");
  // Nothing is left on the device to send twice.
  await page.reload();
  await expect(memories(page).filter({ hasText: title })).toHaveCount(1);
  await expect(queue).toBeHidden();
});

/**
 * What a phone's share sheet does: a POST of a multipart form to the manifest's share target,
 * as a navigation, from the installed app's scope. Here a form on the page makes the same request.
 */
async function shareFromGallery(page: Page, files: Array<{ name: string; mimeType: string; buffer: Buffer }>): Promise<void> {
  const manifest = (await (await page.request.get("/manifest.webmanifest")).json()) as {
    share_target: { action: string; method: string; enctype: string; params: { files: Array<{ name: string }> } };
  };
  const target = manifest.share_target;
  await page.evaluate(
    ({ action, method, enctype, field }) => {
      const form = document.createElement("form");
      form.action = action;
      form.method = method;
      form.enctype = enctype;
      const input = document.createElement("input");
      input.type = "file";
      input.name = field;
      input.multiple = true;
      input.id = "shared-from-gallery";
      form.append(input);
      document.body.append(form);
    },
    { action: target.action, method: target.method, enctype: target.enctype, field: target.params.files[0]!.name },
  );
  await page.locator("#shared-from-gallery").setInputFiles(files);
  await page.evaluate(() => (document.getElementById("shared-from-gallery") as HTMLInputElement).form!.submit());
}

test("photos shared from the gallery open Add Memory with them chosen, signed in or signed in on the way", async ({ page }) => {
  const email = await signIn(page, "share");
  await underServiceWorker(page);
  const manifest = (await (await page.request.get("/manifest.webmanifest")).json()) as { share_target?: unknown };
  expect(manifest.share_target).toMatchObject({
    method: "POST",
    enctype: "multipart/form-data",
    params: { files: [{ name: "photos", accept: ["image/*", "video/mp4", "video/quicktime", "video/webm"] }] },
  });
  const run = Date.now().toString(36);

  // Signed in: the form opens over home with the photo chosen and uploading as if picked.
  await shareFromGallery(page, [
    { name: "beach.png", mimeType: "image/png", buffer: await solidPng(64, 48, [240, 200, 90]) },
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a photo") },
  ]);
  await expect(page).toHaveURL(/\/add-shared\/[0-9a-f-]{36}$/);
  const dialog = page.getByRole("dialog", { name: "Add Memory" });
  await expect(dialog.getByRole("img", { name: "New photo 1" })).toBeVisible();
  // Only images are kept, as the form's own picker does.
  await expect(dialog.getByRole("img", { name: "New photo 2" })).toHaveCount(0);
  await expect(dialog.getByText("beach.png: uploaded")).toBeVisible();
  await dialog.getByLabel("Title").fill(`Shared from the beach ${run}`);
  await dialog.getByLabel("Date").fill(aheadDate(11, 8));
  await dialog.getByRole("button", { name: "Save Memory" }).click();
  await expect(page.getByText("Memory added!")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(memories(page).filter({ hasText: `Shared from the beach ${run}` })).toBeVisible();

  // Signed out: the share waits on the device through the sign-in, then reaches the form.
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await shareFromGallery(page, [{ name: "dunes.png", mimeType: "image/png", buffer: await solidPng(48, 64, [200, 180, 120]) }]);
  await expect(page).toHaveURL(/\/auth\?next=\/add-shared\/[0-9a-f-]{36}$/);
  await fillCredentials(page, email, password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/add-shared\/[0-9a-f-]{36}$/);
  await expect(dialog.getByText("dunes.png: uploaded")).toBeVisible();

  // Taken once: opening the same address again finds nothing, and says so.
  const sharedUrl = page.url();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto(sharedUrl);
  await expect(page.getByText("Photos not added")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(dialog).toHaveCount(0);
});

/** Another site, served by the browser's own routing: a page with a form posting photos to `action`. */
const elsewhere = "http://elsewhere.test";
async function postFromElsewhere(page: Page, action: string, { hideAddress }: { hideAddress: boolean }): Promise<void> {
  await page.route(`${elsewhere}/**`, (route) =>
    route.fulfill({
      contentType: "text/html",
      body: `<!doctype html><html><head>${hideAddress ? '<meta name="referrer" content="no-referrer">' : ""}</head><body>
<form id="planted" action="${action}" method="post" enctype="multipart/form-data">
<input type="file" name="photos" id="planted-photos" multiple></form></body></html>`,
    }),
  );
  await page.goto(`${elsewhere}/${hideAddress ? "hidden" : "plain"}`);
  await page.locator("#planted-photos").setInputFiles({
    name: "planted.png",
    mimeType: "image/png",
    buffer: await solidPng(32, 32, [10, 200, 10]),
  });
  await page.evaluate(() => (document.getElementById("planted") as HTMLFormElement).submit());
}

/** How many shares this device keeps, anyone's. */
function keptShares(page: Page): Promise<number> {
  return page.evaluate(async () => {
    let count = 0;
    for (const name of await caches.keys()) {
      if (!name.startsWith("memory-box-shared")) continue;
      const keys = await (await caches.open(name)).keys();
      count += keys.filter((request) => /^\/shared\/[^/]+$/.test(new URL(request.url).pathname)).length;
    }
    return count;
  });
}

test("another site's form posted to the share target opens no form and keeps no photo; the app's own share still does", async ({
  page,
}) => {
  await signIn(page, "share-elsewhere");
  await underServiceWorker(page);
  const appOrigin = new URL(page.url()).origin;
  const dialog = page.getByRole("dialog", { name: "Add Memory" });

  for (const hideAddress of [false, true]) {
    await postFromElsewhere(page, `${appOrigin}/share`, { hideAddress });
    // Home opens, with no form and nothing kept for one.
    await expect(page).toHaveURL(`${appOrigin}/`);
    await expect(greeting(page)).toBeVisible();
    await expect(dialog).toHaveCount(0);
    expect(await keptShares(page)).toBe(0);
  }

  // The share from the app's own scope (as the share sheet's) still opens the form with the photo.
  await shareFromGallery(page, [{ name: "harbour.png", mimeType: "image/png", buffer: await solidPng(48, 32, [20, 90, 200]) }]);
  await expect(page).toHaveURL(/\/add-shared\/[0-9a-f-]{36}$/);
  await expect(dialog.getByText("harbour.png: uploaded")).toBeVisible();
});

test("without the service worker, the server refuses another site's form posted to the share target", async ({
  browser,
  baseURL,
}) => {
  const appOrigin = new URL(baseURL!).origin;
  const context = await browser.newContext({ serviceWorkers: "block" });
  try {
    const elsewherePage = await context.newPage();
    const answer = elsewherePage.waitForResponse((response) => new URL(response.url()).pathname === "/share");
    await postFromElsewhere(elsewherePage, `${appOrigin}/share`, { hideAddress: false });
    expect((await answer).status()).toBe(403);
    await expect(elsewherePage.getByText("share_from_another_site")).toBeVisible();
  } finally {
    await context.close();
  }
});
