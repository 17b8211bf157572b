import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { expectAccessible, memberPage, screenshotsAtWidths, storedSessionOf } from "./support";

// Issue #36: Settings → Apps. An owner registers an app that may sign members in with Memory Box,
// copies its secret the one time it is shown, and removes it; a member who is not an owner sees
// only the apps they allowed. The registry is shared with the other journeys of this server: the
// journey's app has a name of its own and is removed at the end.

const section = (page: Page, name: string) =>
  page.locator("[data-slot=card]").filter({ has: page.getByRole("heading", { level: 2, name }) });

test("an owner registers an app, sees its secret once and removes it; a member sees only their own grants", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const name = `Journey printer ${Date.now().toString(36)}`;
  const owner = await memberPage(browser, "apps-owner", "/settings/apps");
  await expect(owner.getByRole("link", { name: "Apps" })).toHaveAttribute("aria-current", "page");
  await expect(section(owner, "Apps you allowed").getByText("You have not allowed any app.")).toBeVisible();
  const registry = section(owner, "Apps registered here");
  await expect(registry.getByRole("button", { name: "Register" })).toBeVisible();
  await expectAccessible(owner, "Settings → Apps, an owner's");
  await screenshotsAtWidths(owner, "apps-owner");

  await registry.getByLabel("Name").fill(name);
  await registry.getByLabel("Addresses it returns to").fill("https://print.example/callback");
  const registered = owner.waitForResponse(
    (response) => new URL(response.url()).pathname === "/api/v1/apps" && response.request().method() === "POST",
  );
  await registry.getByRole("button", { name: "Register" }).click();
  const answer = (await (await registered).json()) as { client_id: string; client_secret: string };
  await expect(registry.getByText(answer.client_secret)).toBeVisible();
  await expect(registry.getByText(`${name} is registered`)).toBeVisible();
  await expect(registry.getByRole("listitem", { name })).toBeVisible();
  await expectAccessible(owner, "Settings → Apps with a secret shown once");
  await screenshotsAtWidths(owner, "apps-secret");
  await registry.getByRole("button", { name: "Done" }).click();
  await expect(registry.getByText(answer.client_secret)).toHaveCount(0);

  // Read again, the secret is nowhere: the server keeps only its hash.
  await owner.reload();
  await expect(section(owner, "Apps registered here").getByRole("listitem", { name })).toBeVisible();
  await expect(owner.getByText(answer.client_secret)).toHaveCount(0);

  const row = section(owner, "Apps registered here").getByRole("listitem", { name });
  await row.getByRole("button", { name: "Remove" }).click();
  await owner
    .getByRole("alertdialog", { name: `Remove ${name}?` })
    .getByRole("button", { name: "Remove" })
    .click();
  await expect(owner.getByText("App removed")).toBeVisible();
  await expect(section(owner, "Apps registered here").getByRole("listitem", { name })).toHaveCount(0);

  const member = await memberPage(browser, "box-member", "/settings/apps");
  await expect(section(member, "Apps you allowed")).toBeVisible();
  await expect(member.getByRole("heading", { level: 2, name: "Apps registered here" })).toHaveCount(0);
  // The server refuses them the registry, whatever the page shows.
  const { access_token: token } = JSON.parse(storedSessionOf("box-member")) as { access_token: string };
  const refused = await member.request.get("/api/v1/apps", { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(403);
  expect(await refused.json()).toMatchObject({ code: "owner_only" });
});
