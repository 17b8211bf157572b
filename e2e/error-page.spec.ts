import { expect, test } from "./fixtures";

test("a screen whose chunk is gone after a deploy reloads the page once, then shows the error page", async ({ page }) => {
  // The 404 screen's chunk answers 404, as an old hashed name does once a deploy has replaced it.
  await page.route(/\/assets\/not-found-[\w-]+\.js$/, (route) => route.fulfill({ status: 404, body: "" }));
  const pageLoads: string[] = [];
  page.on("request", (request) => {
    if (request.isNavigationRequest()) pageLoads.push(new URL(request.url()).pathname);
  });

  await page.goto("/nope");

  await expect(page.getByRole("heading", { name: "Something went wrong" })).toBeVisible();
  expect(pageLoads).toEqual(["/nope", "/nope"]);
  await expect(page.getByRole("link", { name: "Return to Home" })).toHaveAttribute("href", "/");
  // The error page is checked with axe by the screens journey (e2e/screens.spec.ts).
});
