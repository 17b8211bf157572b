import { expect, test } from "./fixtures";
import { aheadDate, aheadYear, expectAccessible, memberApiAs, signIn } from "./support";

test("the timeline beside home's list jumps to a month, pages on from there, follows the tag filter and goes back to the newest", async ({
  page,
  request,
}) => {
  // Made before home opens, so the page loads them once instead of following each as it comes.
  const api = memberApiAs(request, "timeline");
  const run = Date.now().toString(36);
  const tag = `tl-${run}`;
  // Dated next year (e2e/support.ts, aheadDate), after anything else in the collection, so that
  // they lead the list; all but the newest carry the tag. January to March are this spec's alone.
  await api.createMemory({ title: `Newest ${run}`, memory_date: aheadDate(12, 30) });
  await api.createMemory({ title: `Tagged newest ${run}`, memory_date: aheadDate(10, 15), tags: [tag] });
  await api.createMemory({ title: `March ${run}`, memory_date: aheadDate(3, 9), tags: [tag] });
  // More than a page (30) after March: three in February, then one a day from January 28 back.
  await Promise.all(
    Array.from({ length: 31 }, (_, offset) => {
      const index = offset + 1;
      const date = offset < 3 ? aheadDate(2, 28 - offset * 9) : aheadDate(1, 31 - offset);
      return api.createMemory({ title: `Old ${index} ${run}`, memory_date: date, tags: [tag] });
    }),
  );

  await signIn(page, "timeline");
  const timeline = page.getByRole("navigation", { name: "Timeline" });
  const cards = page.getByRole("list", { name: "Memories" }).getByRole("heading", { level: 2 });
  await expect(timeline.getByRole("heading", { name: String(aheadYear) })).toBeVisible();
  await expect(timeline.getByRole("button", { name: "Newest" })).toHaveAttribute("aria-current", "true");
  await expect(cards.first()).toHaveText(`Newest ${run}`);
  const count = await page
    .locator("#root")
    .getByText(/^\d+ memories$/)
    .textContent();

  // An older month: its memory first, the count unchanged, and the pages carry on from there.
  await timeline.getByRole("button", { name: `March ${aheadYear}, 1 memory` }).click();
  await expect(cards.first()).toHaveText(`March ${run}`);
  await expect(timeline.getByRole("button", { name: `March ${aheadYear}, 1 memory` })).toHaveAttribute("aria-current", "true");
  await expect(page.locator("#root").getByText(/^\d+ memories$/)).toHaveText(count!);
  await expect(page.getByRole("link", { name: `Newest ${run}` })).toHaveCount(0);
  await cards.last().scrollIntoViewIfNeeded();
  await expect(page.getByRole("link", { name: `Old 31 ${run}` })).toBeVisible();
  await expectAccessible(page, "home started at a month");

  // The tag filter: the index counts its memories only, and the list starts at its newest again.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole("group", { name: "Filter by tag" }).getByRole("button", { name: tag }).click();
  await expect(page.getByText(/^\d+ of \d+ memories$/)).toHaveText(new RegExp(`^33 of `));
  await expect(timeline.getByRole("button", { name: `December ${aheadYear}, 1 memory` })).toHaveCount(0);
  await expect(timeline.getByRole("button", { name: `October ${aheadYear}, 1 memory` })).toBeVisible();
  await expect(timeline.getByRole("button", { name: `February ${aheadYear}, 3 memories` })).toBeVisible();
  await expect(timeline.getByRole("button", { name: "Newest" })).toHaveAttribute("aria-current", "true");
  await expect(cards.first()).toHaveText(`Tagged newest ${run}`);

  await timeline.getByRole("button", { name: `February ${aheadYear}, 3 memories` }).click();
  await expect(cards.first()).toHaveText(`Old 1 ${run}`);
  await page.emulateMedia({ colorScheme: "dark" });
  await expectAccessible(page, "home started at a month, filtered, dark");
  await page.emulateMedia({ colorScheme: "light" });

  await timeline.getByRole("button", { name: "Newest" }).click();
  await expect(cards.first()).toHaveText(`Tagged newest ${run}`);
  await expect(timeline.getByRole("button", { name: "Newest" })).toHaveAttribute("aria-current", "true");

  // A narrow screen has the same index as one "Jump to" select above the cards.
  await page.setViewportSize({ width: 375, height: 800 });
  const jumpTo = page.getByRole("combobox", { name: "Jump to" });
  await jumpTo.selectOption({ label: `Mar ${aheadYear} (1)` });
  await expect(cards.first()).toHaveText(`March ${run}`);
  await jumpTo.selectOption({ label: "Newest" });
  await expect(cards.first()).toHaveText(`Tagged newest ${run}`);
  await expectAccessible(page, "home on a narrow screen with the timeline");
});
