import fs from "node:fs";
import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible, fillCredentials, greeting, mailContaining, password, signIn } from "./support";

// Passkeys and security keys in Chromium, with a virtual authenticator attached through the
// DevTools protocol: it answers the browser's WebAuthn prompts as a phone or a key would.

async function attachAuthenticator(page: Page, kind: "passkey" | "security key"): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options:
      kind === "passkey"
        ? {
            protocol: "ctap2",
            transport: "internal",
            hasResidentKey: true,
            hasUserVerification: true,
            isUserVerified: true,
            automaticPresenceSimulation: true,
          }
        : {
            protocol: "ctap2",
            transport: "usb",
            hasResidentKey: false,
            hasUserVerification: false,
            automaticPresenceSimulation: true,
          },
  });
}

/** A state of the passkey list at both widths, light and dark, for a look (outside the repository). */
async function screenshots(page: Page, name: string): Promise<void> {
  const folder = process.env.ACCOUNT_SHOTS;
  if (!folder) return;
  fs.mkdirSync(folder, { recursive: true });
  for (const colorScheme of ["light", "dark"] as const)
    for (const width of [375, 1280]) {
      await page.emulateMedia({ colorScheme });
      await page.setViewportSize({ width, height: 900 });
      await page.getByText("Passkeys", { exact: true }).first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${folder}/${name}-${width}-${colorScheme}.png` });
    }
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 1280, height: 720 });
}

async function openSettings(page: Page): Promise<void> {
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
}

test("a member adds a passkey in Settings under a name of her own, renames it, signs in with it without address or password, and removes it", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const page = await (await browser.newContext()).newPage();
  await attachAuthenticator(page, "passkey");
  const email = await signIn(page, "passkey");

  await openSettings(page);
  const passkeys = page.getByRole("list", { name: "Passkeys" });
  await expect(page.getByText("None yet. A passkey signs you in")).toBeVisible();
  await page.getByRole("button", { name: "Add a passkey" }).click();
  // The name is asked for first, prefilled with where the passkey is made.
  const name = page.getByLabel("Name of the new passkey");
  await expect(name).toHaveValue(/^Chrome \d+ on /);
  await name.fill("Work laptop");
  await screenshots(page, "passkey-name");
  await page.getByRole("button", { name: "Create passkey" }).click();
  await expect(page.getByText("Passkey added", { exact: true })).toBeVisible();
  await expect(passkeys.getByRole("listitem")).toHaveCount(1);
  await expect(passkeys.getByRole("listitem")).toContainText("Work laptop");
  await expect(passkeys.getByRole("listitem")).toContainText("not used yet");

  await passkeys.getByRole("button", { name: "Rename" }).click();
  const newName = page.getByLabel("New name for Work laptop");
  await newName.fill("   ");
  await passkeys.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("A name needs 1 to 120 characters.")).toBeVisible();
  await expectAccessible(page, "renaming a passkey", "serious");
  await screenshots(page, "passkey-rename");
  await newName.fill("Anna's laptop");
  await passkeys.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Passkey renamed", { exact: true })).toBeVisible();
  await expect(passkeys.getByRole("listitem", { name: "Anna's laptop" })).toBeVisible();
  await page.reload();
  await expect(passkeys.getByRole("listitem", { name: "Anna's laptop" })).toBeVisible();
  await mailContaining(email, "A passkey was added");
  await expectAccessible(page, "settings with a passkey", "serious");

  await page.getByRole("link", { name: "Back to Memories" }).click();
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(greeting(page)).toBeVisible();

  await openSettings(page);
  await expect(passkeys.getByRole("listitem")).toContainText("used");
  await expect(passkeys.getByRole("listitem")).not.toContainText("not used yet");
  await passkeys.getByRole("button", { name: "Remove" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove" }).click();
  await expect(page.getByText("Passkey removed", { exact: true })).toBeVisible();
  await expect(page.getByText("None yet. A passkey signs you in")).toBeVisible();

  // The authenticator still holds the credential, but the server no longer knows it.
  await page.getByRole("link", { name: "Back to Memories" }).click();
  await page.getByRole("button", { name: "Sign Out" }).click();
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(page.getByText("This passkey is not registered for Memory Box. Sign in with your password.")).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
  await page.context().close();
});

test("a security key added as the second step is asked for at the next sign-in, and opens the memories", async ({ browser }) => {
  test.setTimeout(90_000);
  const page = await (await browser.newContext()).newPage();
  await attachAuthenticator(page, "security key");
  const email = await signIn(page, "key");

  await openSettings(page);
  await page.getByRole("button", { name: "Add security key" }).click();
  await expect(page.getByText("Security key added", { exact: true })).toBeVisible();
  await expect(page.getByRole("listitem", { name: "Security key" })).toBeVisible();
  await mailContaining(email, "A security key was added");

  await page.getByRole("link", { name: "Back to Memories" }).click();
  await page.getByRole("button", { name: "Sign Out" }).click();
  await fillCredentials(page, email, password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Two-step verification" })).toBeVisible();
  await expect(page.getByText("Use your security key to open your memories.")).toBeVisible();
  await expect(page.getByText(/^Welcome back, /)).toHaveCount(0);
  await expectAccessible(page, "security key step", "serious");
  await page.getByRole("button", { name: "Use security key" }).click();
  await expect(greeting(page)).toBeVisible();
  await page.context().close();
});
