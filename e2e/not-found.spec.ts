import { expect, test } from "./fixtures";

test("an unknown address shows the 404 page with a way home", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });

  await page.goto("/nope");

  await expect(page.getByText("404", { exact: true })).toBeVisible();
  await expect(page.getByText("Oops! Page not found")).toBeVisible();
  const home = page.getByRole("link", { name: "Return to Home" });
  await expect(home).toHaveAttribute("href", "/");
  expect(errors.some((text) => text.includes("/nope"))).toBe(true);

  await home.click();
  await expect(page).not.toHaveURL(/\/nope$/);
});

test("a client route survives a reload", async ({ page }) => {
  const response = await page.goto("/memory/3f1c2a9e-0000-4000-8000-000000000000");
  expect(response?.status()).toBe(200);
  expect(response?.headers()["cache-control"]).toBe("no-cache");
  await expect(page.getByText("Oops! Page not found")).toHaveCount(0);
});
