import { expect, test } from "./fixtures";
import { localDate, memberApiAs, signIn, solidPng } from "./support";

test("home shows, above the list, the memories of this day in earlier years, and not those of other days", async ({
  page,
  request,
}) => {
  const api = memberApiAs(request, "on-this-day");
  const run = Date.now().toString(36);
  const photo = await api.uploadPhoto(await solidPng(64, 48, [40, 120, 200]));
  const today = await api.createMemory({
    title: `Three years ago today ${run}`,
    memory_date: localDate(3),
    photo_ids: [photo.id],
  });
  await api.createMemory({ title: `Three years ago, a month later ${run}`, memory_date: localDate(3, 31) });

  await signIn(page, "on-this-day");
  const section = page.getByRole("region", { name: "On this day" });
  await expect(section).toBeVisible();
  const threeYears = section.getByRole("list", { name: "3 years ago" });
  await expect(threeYears.getByRole("link", { name: new RegExp(`Three years ago today ${run}`) })).toBeVisible();
  await expect(section.getByText(`Three years ago, a month later ${run}`)).toHaveCount(0);
  // The list, its count and filters are still there, below it.
  await expect(page.getByRole("list", { name: "Memories" })).toBeVisible();
  // Home with "On this day" is checked with axe by the screens journey (e2e/screens.spec.ts).

  await threeYears.getByRole("link", { name: new RegExp(`Three years ago today ${run}`) }).click();
  await expect(page).toHaveURL(new RegExp(`/memory/${today.id}$`));
  await expect(page.getByRole("heading", { level: 1, name: `Three years ago today ${run}` })).toBeVisible();
});
