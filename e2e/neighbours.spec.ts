import { expect, test } from "./fixtures";
import { aheadDate, memberApi, signIn } from "./support";

test("the detail page steps to the previous and next memory in the list's order", async ({ page }) => {
  await signIn(page, "neighbours");
  const api = await memberApi(page, page.request);
  const run = Date.now().toString(36);
  // Dated after anything the specs before this one leave in the shared collection (comments.spec's
  // November 20 of next year), and before what the timeline's spec, which runs after it, needs first (December 30):
  // so that these three stand together at the top of the list.
  const newest = await api.createMemory({ title: `Newest ${run}`, memory_date: aheadDate(12, 8) });
  const middle = await api.createMemory({ title: `Middle ${run}`, memory_date: aheadDate(12, 7) });
  const oldest = await api.createMemory({ title: `Oldest ${run}`, memory_date: aheadDate(12, 6) });

  await page.goto(`/memory/${middle.id}`);
  const nav = page.getByRole("navigation", { name: "Other memories" });
  await expect(nav.getByRole("link", { name: `Previous Newest ${run}` })).toBeVisible();
  await expect(nav.getByRole("link", { name: `Next Oldest ${run}` })).toBeVisible();
  // A memory with a previous and a next one is checked with axe by the screens journey (e2e/screens.spec.ts).

  await nav.getByRole("link", { name: `Next Oldest ${run}` }).click();
  await expect(page).toHaveURL(new RegExp(`/memory/${oldest.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: `Oldest ${run}` })).toBeVisible();
  await nav.getByRole("link", { name: `Previous Middle ${run}` }).click();
  await nav.getByRole("link", { name: `Previous Newest ${run}` }).click();
  await expect(page).toHaveURL(new RegExp(`/memory/${newest.id}$`));
  // Nothing is newer: only the way on.
  await expect(nav.getByRole("link", { name: /^Previous/ })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: `Next Middle ${run}` })).toBeVisible();
});
