import { expect, test } from "./fixtures";
import { memberApi, memberApiAs, signIn, solidPng } from "./support";

test("the home screen lists, searches, filters and deletes memories, and shows others' additions live", async ({
  page,
  request,
}) => {
  await signIn(page, "home");
  // The collection is shared by every member, so other tests' memories may exist: start from a
  // unique word and filter by it where the count matters.
  const run = `run${Date.now().toString(36)}`;

  // The app's own count: the first screen painted before the bundle (ADR 0026) may still be there
  // with the same line for a moment when the collection already holds memories.
  const countLine = page.locator("#root").getByText(/^\d+ memories$/);
  await expect(page.locator("#root").getByText("No memories yet").or(countLine)).toBeVisible();
  const before = (await countLine.isVisible()) ? Number(/^\d+/.exec((await countLine.textContent()) ?? "")?.[0]) : 0;

  // Added through the API (as another member's device would): the open page picks them up live.
  const api = await memberApi(page, request);
  const photos = [
    await api.uploadPhoto(await solidPng(64, 48, [200, 120, 80])),
    await api.uploadPhoto(await solidPng(48, 64, [80, 120, 200])),
  ];
  await api.createMemory({
    title: `Lisbon ${run}`,
    content: "Trams and tiles.",
    memory_date: "2023-06-01",
    tags: [`travel-${run}`, "food"],
    photo_ids: photos.map((photo) => photo.id),
  });
  await api.createMemory({ title: `Picnic ${run}`, content: "By the lake.", memory_date: "2023-05-20", tags: [`travel-${run}`] });
  await api.createMemory({ title: `First date ${run}`, content: null, memory_date: null, tags: null });

  await expect(page.getByText(`${before + 3} memories`)).toBeVisible();
  const lisbon = page.locator("[data-slot=card]", { has: page.getByRole("link", { name: `Lisbon ${run}` }) });
  await expect(lisbon.getByText("Jun 1, 2023")).toBeVisible();
  await expect(lisbon.getByRole("img", { name: "Memory photo 2" })).toBeVisible();
  // The thumbnails really load (with the photo access cookie the list answer set), at their intrinsic size.
  await expect
    .poll(() =>
      lisbon.getByRole("img", { name: "Memory photo 1" }).evaluate((element) => {
        const image = element as unknown as { complete: boolean; naturalWidth: number };
        return image.complete && image.naturalWidth > 0;
      }),
    )
    .toBe(true);
  await expect(lisbon.getByRole("img", { name: "Memory photo 1" })).toHaveAttribute("width", String(photos[0]!.width));

  // Home with memories is checked with axe by the screens journey (e2e/screens.spec.ts).

  // Search goes to the API and covers the whole collection.
  const search = page.getByRole("searchbox", { name: "Search memories" });
  await search.fill(`lisbon ${run}`);
  await expect(page.getByText(`1 of ${before + 3} memories`)).toBeVisible();
  await expect(page.getByRole("link", { name: `Picnic ${run}` })).toHaveCount(0);

  // Search plus tag; clicking the active tag clears it.
  await search.fill(run);
  await expect(page.getByText(`3 of ${before + 3} memories`)).toBeVisible();
  const filter = page.getByRole("group", { name: "Filter by tag" });
  const travel = filter.getByRole("button", { name: `travel-${run}` });
  // Only the five most used tags are offered; in this run's fresh collection this one is among them.
  await travel.click();
  await expect(travel).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByText(`2 of ${before + 3} memories`)).toBeVisible();
  await travel.click();
  await expect(filter.getByRole("button", { name: "All Tags", exact: true })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByText(`3 of ${before + 3} memories`)).toBeVisible();

  // Nothing matches: Clear Filters resets everything.
  await search.fill(`nothing-${run}`);
  await expect(page.getByRole("heading", { name: "No memories found" })).toBeVisible();
  await page.getByRole("button", { name: "Clear Filters" }).click();
  await expect(search).toHaveValue("");
  await expect(page.getByText(`${before + 3} memories`)).toBeVisible();

  // Delete from the card, after confirming.
  await page.getByRole("button", { name: `Delete Picnic ${run}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Are you sure you want to delete this memory?" });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Memory deleted")).toBeVisible();
  await expect(page.getByText("Your memory has been removed.")).toBeVisible();
  await expect(page.getByRole("link", { name: `Picnic ${run}` })).toHaveCount(0);
  await expect(page.getByText(`${before + 2} memories`)).toBeVisible();

  // The card leads to the memory's page, from its title and from anywhere else on it, photos included.
  await page.getByRole("link", { name: `Lisbon ${run}` }).click();
  await expect(page).toHaveURL(/\/memory\/[0-9a-f-]{36}$/);
  await page.goBack();
  // The card's link lies over its photos: the click goes where the photo is, to whatever is on top
  // there (force: no check that the photo itself takes it), after scrolling it into view.
  await lisbon.getByRole("img", { name: "Memory photo 2" }).click({ force: true });
  await expect(page).toHaveURL(/\/memory\/[0-9a-f-]{36}$/);
});

test("search finds what people type: without accents or capitals, every word in any order, part of a word", async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const api = memberApiAs(request, "search");
  const run = Date.now().toString(36);
  await api.createMemory({ title: `Café au lait ${run}`, content: "Breakfast in Zürich", photo_ids: [] });
  await api.createMemory({ title: `Mountain panorama ${run}`, content: "Above the clouds", photo_ids: [] });
  await signIn(page, "search");
  const search = page.getByRole("searchbox", { name: "Search memories" });
  const titles = page.getByRole("list", { name: "Memories" }).getByRole("heading", { level: 2 });

  await search.fill(`cafe zurich ${run}`);
  await expect(titles).toHaveText([`Café au lait ${run}`]);
  await search.fill(`${run.toUpperCase()} pano moun`);
  await expect(titles).toHaveText([`Mountain panorama ${run}`]);
  await search.fill(`"${run}" (clouds)`);
  await expect(titles).toHaveText([`Mountain panorama ${run}`]);
});
