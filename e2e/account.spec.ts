import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { expect, test } from "./fixtures";
import {
  authKey,
  emailOf,
  expectAccessible,
  fillCredentials,
  greeting,
  memberApiAs,
  memberPage,
  password,
  signIn,
} from "./support";

async function openAccount(page: Page): Promise<void> {
  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
}

test("a display name changed in Settings reaches the greeting and the partner's cards without a reload", async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const title = `Lake day ${Date.now()}`;
  await memberApiAs(request, "ben").createMemory({ title, photo_ids: [] });
  const ann = await memberPage(browser, "ann");
  const ben = await memberPage(browser, "ben");
  const card = ann.locator('[data-slot="card"]').filter({ has: ann.getByRole("link", { name: title }) });
  await expect(card).toContainText(/ben-/);

  await openAccount(ben);
  await expectAccessible(ben, "account settings", "serious");
  const name = ben.getByLabel("Display name");
  await name.fill("   ");
  await expect(ben.getByText("A display name can't be empty.")).toBeVisible();
  await expect(ben.getByRole("button", { name: "Save name" })).toBeDisabled();
  await name.fill("B".repeat(81));
  await expect(ben.getByText("81/80 characters")).toBeVisible();
  await expect(ben.getByRole("button", { name: "Save name" })).toBeDisabled();
  await name.fill("Benjamin");
  await ben.getByRole("button", { name: "Save name" }).click();
  await expect(ben.getByText("Display name saved")).toBeVisible();

  await expect(card).toContainText("Benjamin");
  await ben.getByRole("link", { name: "Back to Memories" }).click();
  await expect(ben.getByText("Welcome back, Benjamin!").filter({ visible: true })).toBeVisible();

  await ann.context().close();
  await ben.context().close();
});

test("'Sign out everywhere else' takes a second browser to sign-in at once, with nothing of the collection left on it; this one stays in", async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const title = `Kept on the phone ${Date.now()}`;
  await memberApiAs(request, "devices").createMemory({ title, photo_ids: [] });
  const laptop = await memberPage(browser, "devices");
  const email = emailOf("devices");
  const phone = await (await browser.newContext()).newPage();
  await phone.goto("/auth");
  await fillCredentials(phone, email, password);
  await phone.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(greeting(phone)).toBeVisible();
  await expect(phone.getByRole("link", { name: title })).toBeVisible();
  const phoneRequests: string[] = [];
  phone.on("request", (sent) => phoneRequests.push(new URL(sent.url()).pathname));

  await openAccount(laptop);
  const devices = laptop.getByRole("list").filter({ has: laptop.getByText("This device") });
  await expect(devices.getByRole("listitem")).toHaveCount(2);
  await expect(devices.getByRole("listitem").first()).toContainText("This device");
  await expect(devices.getByRole("listitem").first()).toContainText(/Chrome \d+ on \w+/);

  await laptop.getByRole("button", { name: "Sign out everywhere else" }).click();
  await expectAccessible(laptop, "sign out everywhere else question", "serious");
  await laptop.getByRole("alertdialog").getByRole("button", { name: "Sign out everywhere else" }).click();
  await expect(laptop.getByText("Only this device is signed in now.")).toBeVisible();
  await expect(devices.getByRole("listitem")).toHaveCount(1);

  // The phone does nothing: its live stream is told the session ended, and it leaves for sign-in
  // within a few seconds, keeping nothing it showed.
  await expect(phone).toHaveURL(/\/auth/, { timeout: 5_000 });
  await expect(phone.getByRole("button", { name: "Sign In", exact: true })).toBeVisible();
  expect(await phone.locator("body").innerText()).not.toContain(title);
  expect(await phone.evaluate((key) => localStorage.getItem(key), authKey)).toBeNull();
  expect(phoneRequests.filter((path) => path.startsWith("/api/v1/memories"))).toEqual([]);
  await laptop.reload();
  await expect(laptop.getByRole("heading", { name: "Settings" })).toBeVisible();

  await laptop.context().close();
  await phone.context().close();
});

test("two-step verification: an authenticator app added in Settings is asked for at the next sign-in, or a recovery code", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const email = await signIn(page, "totp");
  await openAccount(page);
  await page.getByRole("button", { name: "Add authenticator app" }).click();
  const qrCode = page.getByRole("img", { name: "QR code to scan with your authenticator app" });
  await expect(qrCode).toBeVisible();
  // Drawn, not a broken image with its alt text.
  await expect.poll(() => qrCode.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  await expectAccessible(page, "adding an authenticator app", "serious");
  const key = (await page.locator("code").innerText()).trim();
  const codeNow = () => new TOTP({ secret: Secret.fromBase32(key) }).generate();
  const codeNext = () => new TOTP({ secret: Secret.fromBase32(key) }).generate({ timestamp: Date.now() + 30_000 });

  await page.getByLabel("Code from the app").fill("000000");
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByRole("alert")).toContainText("That code is not right.");
  await page.getByLabel("Code from the app").fill(codeNow());
  await page.getByRole("button", { name: "Turn on" }).click();
  await expect(page.getByText("Authenticator app added")).toBeVisible();
  await expect(page.getByRole("listitem", { name: "Authenticator app" })).toContainText("Added");
  // The recovery codes come with it, shown once.
  const recoveryCodes = page.getByRole("list", { name: "Recovery codes" });
  await expect(recoveryCodes.getByRole("listitem")).toHaveCount(10);
  await expectAccessible(page, "recovery codes", "serious");
  const recoveryCode = (await recoveryCodes.getByRole("listitem").first().innerText()).trim();
  await page.getByRole("button", { name: "I have saved them" }).click();
  await expect(recoveryCodes).toHaveCount(0);
  await expect(page.getByText(/Recovery codes: 10 of 10 left/)).toBeVisible();

  await page.getByRole("link", { name: "Back to Memories" }).click();
  await page.getByRole("button", { name: "Sign Out" }).click();
  await fillCredentials(page, email, password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Two-step verification" })).toBeVisible();
  await expectAccessible(page, "two-step verification", "serious");
  // The code that turned the app on counts once; the next period's is already accepted.
  await page.getByLabel("Authentication code").fill(codeNext());
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(greeting(page)).toBeVisible();

  // Without the phone: a recovery code instead, once.
  await page.getByRole("button", { name: "Sign Out" }).click();
  await fillCredentials(page, email, password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await page.getByRole("button", { name: "Use a recovery code" }).click();
  await page.getByLabel("Recovery code").fill(recoveryCode);
  await page.getByRole("button", { name: "Use recovery code" }).click();
  await expect(greeting(page)).toBeVisible();
  await openAccount(page);
  await expect(page.getByText(/Recovery codes: 9 of 10 left/)).toBeVisible();
});
