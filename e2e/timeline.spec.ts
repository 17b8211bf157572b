import { expect, test } from "./fixtures";
import { expectAccessible, memberApiAs, signIn } from "./support";

const pad = (value: number) => String(value).padStart(2, "0");

test("the timeline beside home's list jumps to a month, pages on from there, follows the tag filter and goes back to the newest", async ({
  page,
  request,
}) => {
  // Made before home opens, so the page loads them once instead of following each as it comes.
  const api = memberApiAs(request, "timeline");
  const run = Date.now().toString(36);
  const tag = `tl-${run}`;
  // Dated after anything else in the collection, so that they lead the list; all but the newest carry the tag.
  await api.createMemory({ title: `Newest ${run}`, memory_date: "2999-12-30" });
  await api.createMemory({ title: `Tagged newest ${run}`, memory_date: "2998-01-15", tags: [tag] });
  await api.createMemory({ title: `March ${run}`, memory_date: "2997-03-09", tags: [tag] });
  // More than a page (30) after March, spread over 2996 from December back to February.
  await Promise.all(
    Array.from({ length: 31 }, (_, offset) => {
      const index = offset + 1;
      const month = 12 - Math.floor(offset / 3);
      const day = 28 - (offset % 3) * 9;
      return api.createMemory({ title: `Old ${index} ${run}`, memory_date: `2996-${pad(month)}-${pad(day)}`, tags: [tag] });
    }),
  );

  await signIn(page, "timeline");
  const timeline = page.getByRole("navigation", { name: "Timeline" });
  const cards = page.getByRole("list", { name: "Memories" }).getByRole("heading", { level: 2 });
  await expect(timeline.getByRole("heading", { name: "2997" })).toBeVisible();
  await expect(timeline.getByRole("button", { name: "Newest" })).toHaveAttribute("aria-current", "true");
  await expect(cards.first()).toHaveText(`Newest ${run}`);
  const count = await page
    .locator("#root")
    .getByText(/^\d+ memories$/)
    .textContent();

  // An older month: its memory first, the count unchanged, and the pages carry on from there.
  await timeline.getByRole("button", { name: "March 2997, 1 memory" }).click();
  await expect(cards.first()).toHaveText(`March ${run}`);
  await expect(timeline.getByRole("button", { name: "March 2997, 1 memory" })).toHaveAttribute("aria-current", "true");
  await expect(page.locator("#root").getByText(/^\d+ memories$/)).toHaveText(count!);
  await expect(page.getByRole("link", { name: `Newest ${run}` })).toHaveCount(0);
  await cards.last().scrollIntoViewIfNeeded();
  await expect(page.getByRole("link", { name: `Old 31 ${run}` })).toBeVisible();
  await expectAccessible(page, "home started at a month");

  // The tag filter: the index counts its memories only, and the list starts at its newest again.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole("group", { name: "Filter by tag" }).getByRole("button", { name: tag }).click();
  await expect(page.getByText(/^\d+ of \d+ memories$/)).toHaveText(new RegExp(`^33 of `));
  await expect(timeline.getByRole("button", { name: "December 2999, 1 memory" })).toHaveCount(0);
  await expect(timeline.getByRole("button", { name: "January 2998, 1 memory" })).toBeVisible();
  await expect(timeline.getByRole("button", { name: "December 2996, 3 memories" })).toBeVisible();
  await expect(timeline.getByRole("button", { name: "Newest" })).toHaveAttribute("aria-current", "true");
  await expect(cards.first()).toHaveText(`Tagged newest ${run}`);

  await timeline.getByRole("button", { name: "December 2996, 3 memories" }).click();
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
  await jumpTo.selectOption({ label: "Mar 2997 (1)" });
  await expect(cards.first()).toHaveText(`March ${run}`);
  await jumpTo.selectOption({ label: "Newest" });
  await expect(cards.first()).toHaveText(`Tagged newest ${run}`);
  await expectAccessible(page, "home on a narrow screen with the timeline");
});
