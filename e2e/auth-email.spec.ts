import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  confirmationLink,
  expectAccessible,
  fillCredentials,
  freshEmail,
  fromNewestMail,
  greeting,
  invite,
  password,
} from "./support";

/** The six-digit code of the newest mail to `email` (the alternative to its link). */
const emailedCode = (email: string) => fromNewestMail(email, /enter this code instead: (\d{6})/);

async function signUpAwaitingConfirmation(page: Page, email: string): Promise<void> {
  await invite(page.request, email);
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await fillCredentials(page, email, password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Check your email for confirmation link")).toBeVisible();
}

test("a member confirms their sign-up by typing the e-mailed code", async ({ page }) => {
  const email = freshEmail("code");
  await signUpAwaitingConfirmation(page, email);
  await expect(page.getByRole("heading", { name: "Enter the code from your email" })).toBeVisible();
  await expectAccessible(page, "code entry", "serious");

  await page.getByLabel("Code").fill(await emailedCode(email));
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(greeting(page)).toBeVisible();
});

test("forgot password, end to end: the e-mailed link sets a new password and signs in; the old one no longer works", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const email = freshEmail("forgot");
  await signUpAwaitingConfirmation(page, email);
  await page.goto(await confirmationLink(email));
  await expect(greeting(page)).toBeVisible();
  await page.getByRole("button", { name: "Sign Out" }).click();

  await page.getByRole("button", { name: "Forgot password?" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toContainText("a link to set a new password is on its way");
  await expectAccessible(page, "reset request", "serious");

  // The newest mail to the address is the reset.
  const resetLink = (
    await fromNewestMail(email, /(https?:\/\/[^\s"<>]+\/auth\/v1\/verify\?[^\s"<>]*type=recovery[^\s"<>]*)/)
  ).replaceAll("&amp;", "&");
  await page.goto(resetLink);
  await expect(page).toHaveURL(/\/auth\/reset/);
  await expect(page.getByRole("heading", { name: "Set a new password" })).toBeVisible();
  await expectAccessible(page, "set password", "serious");
  const newPassword = "a brand new and private phrase";
  await page.getByLabel("New password").fill(newPassword);
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByText("Password updated")).toBeVisible();
  await expect(greeting(page)).toBeVisible();

  // The same link again: used, explained.
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  await page.goto(resetLink);
  await expect(page.getByText(/Each link works once/)).toBeVisible();

  await page.goto("/auth");
  await fillCredentials(page, email, password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText("Invalid login credentials")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(greeting(page)).toBeVisible();
});
