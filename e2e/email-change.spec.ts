import fs from "node:fs";
import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  confirmationLink,
  expectAccessible,
  freshEmail,
  invite,
  mailContaining,
  newestMailTo,
  signIn,
  storedSessionOf,
} from "./support";

// Changing one's own e-mail address in Settings: the address waiting for confirmation stays shown
// after a reload until it is confirmed or cancelled; a member's new address must be invited, an
// owner's own new address needs no invitation (ADR 0067). Mail goes to the server's outbox.

async function openAccountSettings(page: Page): Promise<void> {
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
}

async function askForAddress(page: Page, address: string): Promise<void> {
  await page.getByLabel("New email").fill(address);
  await page.getByRole("button", { name: "Change email" }).click();
}

/** The pending state at both widths, light and dark, for a look (outside the repository). */
async function screenshots(page: Page, name: string): Promise<void> {
  const folder = process.env.ACCOUNT_SHOTS;
  if (!folder) return;
  fs.mkdirSync(folder, { recursive: true });
  for (const colorScheme of ["light", "dark"] as const)
    for (const width of [375, 1280]) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      await page.getByText(/^Waiting for confirmation of /).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${folder}/${name}-${width}-${colorScheme}.png` });
    }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 900 });
}

test("a member's new address must be invited; the pending change survives a reload and can be cancelled", async ({ page }) => {
  test.setTimeout(90_000);
  const email = await signIn(page, "email-member");
  await openAccountSettings(page);

  const uninvited = freshEmail("member-new");
  await askForAddress(page, uninvited);
  await expect(
    page.getByText(`Only invited addresses can be used here: ask an owner to invite ${uninvited} first`),
  ).toBeVisible();

  await invite(page.request, uninvited);
  await page.getByRole("button", { name: "Change email" }).click();
  await expect(page.getByRole("heading", { name: "Enter the code" })).toBeVisible();
  await mailContaining(uninvited, "Confirm your new email address");
  await page.getByRole("button", { name: "Back", exact: true }).click();

  const pending = page.getByText(`Waiting for confirmation of ${uninvited}`);
  await expect(pending).toBeVisible();
  await page.reload();
  await expect(pending).toBeVisible();
  await expectAccessible(page, "settings with an address waiting for confirmation", "serious");
  await screenshots(page, "pending");

  await page.getByRole("button", { name: "Cancel the change" }).click();
  await expect(page.getByText("Change of address cancelled", { exact: true })).toBeVisible();
  await expect(pending).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel("New email")).toBeVisible();
  await expect(pending).toHaveCount(0);
  await expect(page.getByText(`You sign in with ${email}.`)).toBeVisible();

  // The invitation made for the change is taken back: the collection is shared with the journeys
  // that follow on this server, and members.spec expects nobody waiting to sign up but its own.
  const { access_token: token } = JSON.parse(storedSessionOf("keeper")) as { access_token: string };
  const revoked = await page.request.delete(`/api/v1/members/invitations/${encodeURIComponent(uninvited)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(revoked.status(), await revoked.text()).toBeLessThan(300);
});

test("an owner moves to an uninvited address of her own without an invitation, and the link says the address changed", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const email = await signIn(page, "email-owner");
  await openAccountSettings(page);

  const newEmail = freshEmail("owner-new");
  await askForAddress(page, newEmail);
  await expect(page.getByRole("heading", { name: "Enter the code" })).toBeVisible();
  const link = await confirmationLink(newEmail);
  // One mail to the new address, the confirmation; no invitation to it or to her.
  expect(newestMailTo(newEmail)).toContain("Confirm your new email address");
  expect(newestMailTo(email) ?? "").not.toMatch(/invit/i);

  await page.goto(link);
  await expect(page.getByText("Email changed", { exact: true })).toBeVisible();
  await expect(page.getByText(`You sign in with ${newEmail} from now on.`)).toBeVisible();
  await expect(page.getByText(/^Waiting for confirmation of /)).toHaveCount(0);
});
