import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { confirmationLink, expectAccessible, fillCredentials, freshEmail, invite, password } from "./support";

const outbox = path.join(process.env.E2E_DATA_DIR ?? "test-results/e2e-data", "outbox");

/** The six-digit code of the newest mail to `email` (the alternative to its link). */
async function emailedCode(email: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(() => {
      const mails = fs.existsSync(outbox)
        ? fs
            .readdirSync(outbox)
            .filter((name) => name.endsWith(".eml"))
            .sort()
            .reverse()
        : [];
      for (const name of mails) {
        const mail = fs.readFileSync(path.join(outbox, name), "utf8");
        if (!mail.includes(email)) continue;
        code = /enter this code instead: (\d{6})/.exec(mail)?.[1];
        return code;
      }
      return undefined;
    })
    .toBeTruthy();
  return code!;
}

async function signUpAwaitingConfirmation(page: Page, email: string): Promise<void> {
  invite(email);
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
  await expect(page.getByText(/^Welcome back, /)).toBeVisible();
});

test("forgot password, end to end: the e-mailed link sets a new password and signs in; the old one no longer works", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const email = freshEmail("forgot");
  await signUpAwaitingConfirmation(page, email);
  await page.goto(await confirmationLink(email));
  await expect(page.getByText(/^Welcome back, /)).toBeVisible();
  await page.getByRole("button", { name: "Sign Out" }).click();

  await page.getByRole("button", { name: "Forgot password?" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toContainText("a link to set a new password is on its way");
  await expectAccessible(page, "reset request", "serious");

  // The newest mail to the address is the reset.
  const resetLink = await expect
    .poll(async () => {
      const link = await confirmationLink(email);
      return link.includes("type=recovery") ? link : undefined;
    })
    .toBeTruthy()
    .then(() => confirmationLink(email));
  await page.goto(resetLink);
  await expect(page).toHaveURL(/\/auth\/reset/);
  await expect(page.getByRole("heading", { name: "Set a new password" })).toBeVisible();
  await expectAccessible(page, "set password", "serious");
  const newPassword = "a brand new and private phrase";
  await page.getByLabel("New password").fill(newPassword);
  await page.getByRole("button", { name: "Save password" }).click();
  await expect(page.getByText("Password updated")).toBeVisible();
  await expect(page.getByText(/^Welcome back, /)).toBeVisible();

  // The same link again: used, explained.
  await page.getByRole("button", { name: "Sign Out" }).click();
  await page.goto(resetLink);
  await expect(page.getByText(/Each link works once/)).toBeVisible();

  await page.goto("/auth");
  await fillCredentials(page, email, password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Invalid login credentials")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill(newPassword);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText(/^Welcome back, /)).toBeVisible();
});
