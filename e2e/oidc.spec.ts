import { type Locator, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible, freshEmail, fromNewestMail, invite, signIn } from "./support";

// The provider playwright.config.ts starts (e2e/oidc-provider.mjs) and names in AUTH_OIDC_PROVIDERS:
// whatever login is typed at its screen is the person, with that verified address.
const provider = "Local ID";

/**
 * Goes through the provider's own screens until `arrived` shows on our page again: signs in as
 * `login` (any password) and agrees to share the address, when the provider asks. A provider that
 * already knows this browser asks for neither and simply sends it back.
 */
async function throughProvider(page: Page, login: string, arrived: Locator): Promise<void> {
  const loginField = page.getByPlaceholder("Enter any login");
  const consent = page.getByRole("button", { name: "Continue", exact: true });
  for (let step = 0; step < 4; step += 1) {
    await expect(loginField.or(consent).or(arrived).first()).toBeVisible();
    const at = page.url();
    if (new URL(at).hostname !== "127.0.0.1") return;
    if (await loginField.isVisible()) {
      await loginField.fill(login);
      await page.getByPlaceholder("and password").fill("any password");
      await page.getByRole("button", { name: "Sign-in" }).click();
    } else {
      await consent.click();
    }
    await page.waitForURL((url) => url.toString() !== at);
  }
  throw new Error("The provider's screens did not send the browser back");
}

// After a reload the painted first screen and the app's (still hidden) home both hold the greeting
// for a moment: the visible one counts.
const greeting = (page: Page, name: string) => page.getByText(new RegExp(`^Welcome back, ${name}-`)).filter({ visible: true });
const refusal = (page: Page) => page.getByRole("alert").filter({ hasText: `Signing in with ${provider} did not work` });

async function continueWithProvider(page: Page, login: string, arrived: Locator): Promise<void> {
  await page.getByRole("button", { name: `Continue with ${provider}` }).click();
  await throughProvider(page, login, arrived);
}

/** From home's header. */
async function signOut(page: Page): Promise<void> {
  await page.goto("/");
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page.getByRole("tab", { name: "Sign In" })).toBeVisible();
}

test(`"Continue with ${provider}" with an invited address lands signed in on home`, async ({ page }) => {
  const email = freshEmail("provider");
  await invite(page.request, email);
  await page.goto("/auth");
  await expect(page.getByRole("button", { name: `Continue with ${provider}` })).toBeVisible();
  // The sign-in screen, with this button as every journey's has it, is checked with axe by the screens journey.

  await continueWithProvider(page, email, greeting(page, "provider"));
  expect(new URL(page.url()).pathname).toBe("/");
  // The session is the page's own now: a reload keeps the member signed in.
  await page.reload();
  await expect(greeting(page, "provider")).toBeVisible();
});

test("a provider account whose address is not invited is refused on /auth, with the reason", async ({ page }) => {
  await page.goto("/auth");
  await continueWithProvider(page, freshEmail("stranger"), refusal(page));

  await expect(refusal(page)).toContainText("This email address is not invited to access the platform");
  expect(new URL(page.url()).pathname).toBe("/auth");
  await expect(page.getByRole("tab", { name: "Sign In" })).toBeVisible();
  await expect(page.getByText(/^Welcome back, /)).toHaveCount(0);
  await expectAccessible(page, "a provider's refusal", "serious");
});

test("a member connects the provider in Settings, signs in with it, and disconnects it: then it no longer signs in", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const email = await signIn(page, "linker");
  // Their account at the provider has another address, not invited: linking is what lets it in.
  const elsewhere = freshEmail("elsewhere");
  const connected = page.getByRole("list", { name: "Connected accounts" });

  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByText("No account is connected.")).toBeVisible();
  await page.getByRole("button", { name: `Connect ${provider}`, exact: true }).click();
  await throughProvider(page, elsewhere, connected);

  expect(new URL(page.url()).pathname).toBe("/settings");
  await expect(connected.getByRole("listitem")).toHaveText([`${provider} · ${elsewhere}Disconnect`]);
  await expect(page.getByRole("button", { name: `Connect ${provider}`, exact: true })).toHaveCount(0);
  await expectAccessible(page, "settings with a connected account", "serious");
  // The member's address is told, as of every new way in.
  await fromNewestMail(email, new RegExp(`(The ${provider} account ${elsewhere} was connected)`));

  // The provider account now signs in as this member.
  await signOut(page);
  await continueWithProvider(page, elsewhere, greeting(page, "linker"));

  await page.getByRole("link", { name: "Settings" }).click();
  await page.getByRole("button", { name: `Disconnect ${provider}` }).click();
  await expect(page.getByText(`You no longer sign in with ${provider}.`)).toBeVisible();
  await expect(page.getByText("No account is connected.")).toBeVisible();
  await expect(page.getByRole("button", { name: `Connect ${provider}`, exact: true })).toBeVisible();
  await fromNewestMail(email, new RegExp(`(The ${provider} account ${elsewhere} was disconnected)`));

  // Disconnected: the same provider account is a stranger again.
  await signOut(page);
  await continueWithProvider(page, elsewhere, refusal(page));
  await expect(refusal(page)).toContainText("This email address is not invited to access the platform");
  await expect(page.getByText(/^Welcome back, /)).toHaveCount(0);
});
