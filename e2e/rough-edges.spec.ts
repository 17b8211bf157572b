import { expect, test } from "./fixtures";
import {
  confirmationLink,
  expectAccessible,
  fillCredentials,
  freshEmail,
  invite,
  localDate,
  memberApiAs,
  password,
  signIn,
} from "./support";

// Issue #34's rough edges that show in the browser: stale sign-in toasts, a used e-mail link opened
// while signed in. A fresh invited address of its own, so no other journey's member is touched.
test("sign-in toasts do not stack or outstay the right password; a used link is said calmly and leaves the address", async ({
  page,
}) => {
  const email = freshEmail("rough-edges");
  const name = email.split("@")[0]!;
  await invite(page.request, email);
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await fillCredentials(page, email, password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Check your email for confirmation link")).toBeVisible();
  const link = await confirmationLink(email);
  await page.goto(link);
  await expect(page.getByText(`Welcome back, ${name}!`).filter({ visible: true })).toBeVisible();
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/auth$/);

  // Two refusals: one toast, not two.
  await fillCredentials(page, email, "not the password");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText("Invalid login credentials")).toBeVisible();
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeEnabled();
  await expect(page.getByText("Invalid login credentials")).toHaveCount(1);

  // The right password: home, and the red toast is gone.
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText(`Welcome back, ${name}!`).filter({ visible: true })).toBeVisible();
  await expect(page.getByText("Invalid login credentials")).toHaveCount(0);

  // The confirmation link again, signed in: said calmly, and the #error=… leaves the address bar.
  await page.goto("/#error=access_denied&error_code=otp_expired&error_description=Email+link+is+invalid+or+has+expired");
  await expect(
    page.getByText("That e-mail link was already used or has expired. You are signed in, so there is nothing more to do."),
  ).toBeVisible();
  await expect(page).toHaveURL((url) => url.hash === "" && url.pathname === "/");
  await expectAccessible(page, "home after a used e-mail link");
});

// Issue #34, rough edge 5: Edit opened from a card far down the list leaves the page where it was.
test("Edit opened from a card far down the list keeps the page behind it where it was, and so does closing it", async ({
  page,
  request,
}) => {
  const run = Date.now().toString(36);
  const api = memberApiAs(request, "search");
  // Dated long ago and months from today, so "On this day" and the lists other journeys lead stay as they are.
  for (let index = 1; index <= 12; index++)
    await api.createMemory({ title: `Far down ${run} ${index}`, memory_date: localDate(40, 100 + index) });
  await page.setViewportSize({ width: 375, height: 700 });
  await signIn(page, "search");
  await page.goto(`/?q=${encodeURIComponent(`Far down ${run}`)}`);
  const last = `Far down ${run} 1`;
  await expect(page.getByRole("link", { name: last, exact: true })).toBeVisible();
  const edit = page.getByRole("button", { name: `Edit ${last}`, exact: true });
  await edit.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  expect(scrolled).toBeGreaterThan(500);

  await edit.click();
  const dialog = page.getByRole("dialog", { name: "Edit Memory" });
  await expect(dialog.getByLabel("Title")).toHaveValue(last);
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(edit).toBeFocused();
  expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
});
