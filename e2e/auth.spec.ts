import { expect, test } from "./fixtures";
import { confirmationLink, fillCredentials, freshEmail, invite, password } from "./support";

test("an address that is not invited is turned away", async ({ page }) => {
  await page.goto("/auth");
  await fillCredentials(page, freshEmail("stranger"), password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();

  await expect(page.getByText("Access Denied")).toBeVisible();
  await expect(page.getByText("This email address is not invited to access the platform")).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});

test("an invited member signs up, confirms by e-mail, signs out and signs back in where they were heading", async ({ page }) => {
  const email = freshEmail("member");
  const name = email.split("@")[0]!;
  await invite(page.request, email);

  // A visitor is sent to the auth screen.
  await page.goto("/");
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole("heading", { name: "Welcome to Memory Box" })).toBeVisible();

  // Sign up: the account waits for confirmation.
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("placeholder", "Create a password");
  await fillCredentials(page, email, password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Check your email for confirmation link")).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);

  // The link in the mail signs them in and lands on home.
  await page.goto(await confirmationLink(email));
  await expect(page.getByText(`Welcome back, ${name}!`).filter({ visible: true })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/");
  await expect(page.getByRole("heading", { name: "Memory Box" })).toBeVisible();

  // The session survives a reload.
  await page.reload();
  // The painted first screen and the app's (still hidden) home both hold the greeting for a moment: the visible one counts.
  await expect(page.getByText(`Welcome back, ${name}!`).filter({ visible: true })).toBeVisible();

  // Sign out.
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/auth$/);

  // A member screen remembers where the visitor was heading; signing in goes there.
  await page.goto("/memory/3f1c2a9e-0000-4000-8000-000000000000");
  await expect(page).toHaveURL(/\/auth\?next=\/memory\/3f1c2a9e-0000-4000-8000-000000000000$/);
  await fillCredentials(page, email, "not the password");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText("Authentication Error")).toBeVisible();

  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(/\/memory\/3f1c2a9e-0000-4000-8000-000000000000$/);
});
