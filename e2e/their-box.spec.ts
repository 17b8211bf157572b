import type { APIRequestContext, Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import {
  expectAccessible,
  greeting,
  localDate,
  memberApiAs,
  memberPage,
  screenshotsAtWidths,
  solidPng,
  storedSessionOf,
} from "./support";
import type { MemberKey } from "./members";

// Issue #34 "Their box" (ADR 0065): an owner names the box, chooses its cover and the day they have
// been together since in Settings; home shows them, with the anniversary line on the day. The
// collection and the box are shared with the other journeys of this server: whatever is there is
// left as it is, and the box is put back to unset at the end, so home looks as it always did.

const unset = { name: null, cover_photo_id: null, together_since: null };

function putBox(request: APIRequestContext, key: MemberKey, data: object) {
  const { access_token: token } = JSON.parse(storedSessionOf(key)) as { access_token: string };
  return request.put("/api/v1/box", { headers: { authorization: `Bearer ${token}` }, data });
}

/** Settings' "Our box" card. */
const boxSection = (page: Page) =>
  page.locator("[data-slot=card]").filter({ has: page.getByRole("heading", { level: 2, name: "Our box" }) });

test("an owner names the box, chooses its cover and together-since; home shows them with the anniversary line; a member sees them read-only", async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  // A photo of the owner's own to choose as the cover, in an undated memory (it sorts last, out of the others' way).
  const api = memberApiAs(request, "box-owner");
  const photo = await api.uploadPhoto(await solidPng(640, 480, [196, 120, 90]));
  const memory = await api.createMemory({
    title: "Box cover journey",
    content: null,
    memory_date: null,
    tags: null,
    photo_ids: [photo.id],
  });
  const since = localDate(7);

  try {
    const owner = await memberPage(browser, "box-owner", "/settings");
    const section = boxSection(owner);
    await expect(section.getByLabel("Name")).toBeVisible();
    await section.getByLabel("Name").fill("Ann & Ben");
    // The collection is shared: its photo may be a page or more down the picker.
    const choice = section.getByRole("radio", { name: "Photo from Box cover journey" });
    const more = section.getByRole("button", { name: "Show more photos" });
    while (!(await choice.count()) && (await more.isVisible())) {
      await more.click();
      // The next page in: its photos, with "Show more photos" again when there are still more.
      await expect(more.or(choice).first()).toBeVisible();
    }
    await choice.check({ force: true });
    await section.getByLabel("Together since").fill(since);
    await expectAccessible(owner, "Settings with the owner's box form");
    const saved = owner.waitForResponse(
      (response) => new URL(response.url()).pathname === "/api/v1/box" && response.request().method() === "PUT",
    );
    await section.getByRole("button", { name: "Save box" }).click();
    expect((await saved).status()).toBe(200);
    await expect(owner.getByText("The box is saved")).toBeVisible();
    await screenshotsAtWidths(owner, "settings-owner");

    // Home: the name, the cover and "7 years today", the spec's header as it was.
    await owner.goto("/");
    const header = owner.getByRole("region", { name: "Ann & Ben" });
    await expect(header.getByRole("heading", { level: 2, name: "Ann & Ben" })).toBeVisible();
    await expect(header.getByText("7 years today")).toBeVisible();
    await expect(header.locator("img")).toHaveAttribute("src", photo.thumbnail_url);
    await expect(header.locator("img")).toHaveJSProperty("complete", true);
    expect(await header.locator("img").evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    await expect(owner.getByRole("heading", { level: 1, name: "Memory Box" })).toBeVisible();
    await expect(owner.getByText("Welcome back, Ann!").filter({ visible: true })).toBeVisible();
    await expectAccessible(owner, "home with the box's header");
    // The installed app takes the box's name; its icons stay the shipped ones.
    const named = (await (await owner.request.get("/manifest.webmanifest")).json()) as { name: string; short_name: string };
    expect(named).toMatchObject({ name: "Ann & Ben", short_name: "Ann & Ben" });
    await screenshotsAtWidths(owner, "home-owner");

    // A member: the same on home, and read-only in Settings; the server refuses them a change.
    const member = await memberPage(browser, "box-member");
    await expect(member.getByRole("region", { name: "Ann & Ben" }).getByText("7 years today")).toBeVisible();
    await member.goto("/settings");
    const readOnly = boxSection(member);
    await expect(readOnly.getByText("Ann & Ben")).toBeVisible();
    await expect(readOnly.getByText("Only an owner can change these.")).toBeVisible();
    await expect(readOnly.getByRole("img", { name: "The box's cover" })).toBeVisible();
    await expect(readOnly.getByRole("textbox")).toHaveCount(0);
    await expect(readOnly.getByRole("button")).toHaveCount(0);
    await expectAccessible(member, "Settings with the member's read-only box");
    await screenshotsAtWidths(member, "settings-member");
    const refused = await putBox(request, "box-member", { name: "Mine now", cover_photo_id: null, together_since: null });
    expect(refused.status()).toBe(403);

    // Unset from the form: home is as before.
    await owner.goto("/settings");
    await section.getByLabel("Name").fill("");
    await section.getByRole("radio", { name: "No cover" }).check({ force: true });
    await section.getByLabel("Together since").fill("");
    const unsetSaved = owner.waitForResponse(
      (response) => new URL(response.url()).pathname === "/api/v1/box" && response.request().method() === "PUT",
    );
    await section.getByRole("button", { name: "Save box" }).click();
    expect((await unsetSaved).status()).toBe(200);
    await owner.goto("/");
    await expect(greeting(owner)).toBeVisible();
    await expect(owner.locator("#root").getByText(/^(\d+ memories|No memories yet)$/)).toBeVisible();
    await expect(owner.getByRole("region", { name: "Ann & Ben" })).toHaveCount(0);
    await expect(owner.getByText("7 years today")).toHaveCount(0);
    const unnamed = (await (await owner.request.get("/manifest.webmanifest")).json()) as { name: string };
    expect(unnamed.name).toBe("Memory Box");
  } finally {
    // Whatever happened above, the other journeys find the box unset and the collection as it was.
    expect((await putBox(request, "box-owner", unset)).status()).toBe(200);
    const { access_token: token } = JSON.parse(storedSessionOf("box-owner")) as { access_token: string };
    await request.delete(`/api/v1/memories/${memory.id}`, { headers: { authorization: `Bearer ${token}` } });
  }
});
