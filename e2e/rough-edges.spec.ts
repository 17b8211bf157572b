import { expect, test } from "./fixtures";
import { confirmationLink, expectAccessible, fillCredentials, freshEmail, invite, password } from "./support";

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
