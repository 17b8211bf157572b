import { type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  currentServer,
  expectAccessible,
  freshEmail,
  greeting,
  invite,
  password,
  screenshotsAtWidths,
  serviceToken,
  storedSessionOf,
} from "./support";

/** A member of their own, never shown the guide: invited, their account made by the operator; an owner when asked. */
async function freshMember(request: APIRequestContext, label: string, owner: boolean): Promise<string> {
  const email = freshEmail(label);
  await invite(request, email);
  const made = await request.post(`${currentServer().url}/auth/v1/admin/users`, {
    headers: { authorization: `Bearer ${await serviceToken()}` },
    data: { email, password, email_confirm: true },
  });
  expect(made.status(), await made.text()).toBe(200);
  if (owner) {
    const { id } = (await made.json()) as { id: string };
    const { access_token: token } = JSON.parse(storedSessionOf("keeper")) as { access_token: string };
    const promoted = await request.put(`${currentServer().url}/api/v1/members/${id}/role`, {
      headers: { authorization: `Bearer ${token}` },
      data: { role: "owner" },
    });
    expect(promoted.status(), await promoted.text()).toBe(200);
  }
  return email;
}

async function signInOnPage(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto("/auth");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  const guideRead = guideAnswered(page);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(greeting(page)).toBeVisible();
  await guideRead;
  return page;
}

/** Home has read the member's guide state (and so shows the card now, or never on this visit). */
const guideAnswered = (page: Page) =>
  page.waitForResponse((response) => response.url().endsWith("/api/v1/account/guide") && response.request().method() === "GET");

/** Home's list has loaded: its count, or that there is nothing yet (the collection is shared with other journeys). */
const listShown = (page: Page) => page.locator("#root").getByText(/^(\d+ memories|No memories yet)$/);

const guideOf = (page: Page) => page.getByRole("region", { name: "Welcome to your Memory Box" });

test("a new owner sees the guide with the invite step, closes it for good on every device, and brings it back from Settings", async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const email = await freshMember(request, "guide-owner", true);
  const page = await signInOnPage(browser, email);
  const guide = guideOf(page);
  await expect(guide).toBeVisible();
  await expect(guide.getByRole("heading", { level: 3 })).toHaveText([
    "On this day",
    "Keep it on your phone",
    "Without a connection",
    "Invite your partner",
  ]);
  // Chromium in the journeys offers no install prompt: the steps by hand, Safari's first.
  await expect(guide.getByText(/tap Share, then "Add to Home Screen"/)).toBeVisible();
  await expect(guide.getByRole("link", { name: "Open the member list" })).toHaveAttribute("href", "/settings/members");
  await expectAccessible(page, "home with the first-run guide");

  await screenshotsAtWidths(page, "owner", () => guide.scrollIntoViewIfNeeded());

  // Escape from inside closes it; focus goes to the page's heading, not to the page's start.
  await guide.getByRole("button", { name: "Got it" }).focus();
  const closed = page.waitForResponse(
    (response) => response.url().endsWith("/api/v1/account/guide") && response.request().method() === "PUT",
  );
  await page.keyboard.press("Escape");
  await expect(guide).toHaveCount(0);
  expect((await closed).status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toBeFocused();

  const readAgain = guideAnswered(page);
  await page.reload();
  await expect(greeting(page)).toBeVisible();
  await readAgain;
  await expect(listShown(page)).toBeVisible();
  await expect(guideOf(page)).toHaveCount(0);

  // Another browser (another device) of the same member: closed there too.
  const elsewhere = await signInOnPage(browser, email);
  await expect(listShown(elsewhere)).toBeVisible();
  await expect(guideOf(elsewhere)).toHaveCount(0);

  // Settings → "Show the guide again": home shows it, with focus in it; "Got it" closes it again.
  await elsewhere.getByRole("link", { name: "Settings" }).click();
  await elsewhere.getByRole("button", { name: "Show the guide again" }).click();
  await expect(elsewhere).toHaveURL(/\/$/);
  await expect(guideOf(elsewhere)).toBeVisible();
  await expect(elsewhere.getByRole("heading", { name: "Welcome to your Memory Box" })).toBeFocused();
  await guideOf(elsewhere).getByRole("button", { name: "Got it" }).click();
  await expect(guideOf(elsewhere)).toHaveCount(0);
  const readOnceMore = guideAnswered(elsewhere);
  await elsewhere.reload();
  await readOnceMore;
  await expect(listShown(elsewhere)).toBeVisible();
  await expect(guideOf(elsewhere)).toHaveCount(0);
});

test("an invited partner sees the guide without the invite step, in Arabic from right to left too", async ({
  browser,
  request,
}) => {
  const email = await freshMember(request, "guide-partner", false);
  const page = await signInOnPage(browser, email);
  const guide = guideOf(page);
  await expect(guide).toBeVisible();
  await expect(guide.getByRole("heading", { level: 3 })).toHaveText([
    "On this day",
    "Keep it on your phone",
    "Without a connection",
  ]);
  await expect(guide.getByRole("link")).toHaveCount(0);
  await expectAccessible(page, "home with the partner's first-run guide");

  await page.evaluate(() => localStorage.setItem("memory-box-locale", "ar"));
  await page.reload();
  const arabic = page.getByRole("region", { name: "مرحبًا بك في Memory Box" });
  await expect(arabic).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: test.info().outputPath("partner-ar-375.png"), fullPage: true });
  await expectAccessible(page, "home with the first-run guide in Arabic");
});
