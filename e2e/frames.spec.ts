import type { APIRequestContext } from "@playwright/test";
import type { FrameList } from "@memory-box/contract";
import { expect, test } from "./fixtures";
import { expectAccessible, localDate, memberApiAs, memberPage, screenshotsAtWidths, solidPng, storedSessionOf } from "./support";

/*
 * Issue #36, paired frames (ADR 0076): a frame (a browser with no member in it) opens /frame and
 * shows a code; a member enters it at /device, names the frame and gives it one tag; the frame
 * shows the photo of the memory carrying that tag. Removed in Settings → Frames, the frame is back
 * at pairing at its next refresh. The collection is shared with the journeys beside this one: the
 * memory is the journey's own, under a tag of its own, and is deleted at the end.
 */

function framesApi(request: APIRequestContext) {
  const { access_token: token } = JSON.parse(storedSessionOf("frames")) as { access_token: string };
  const headers = { authorization: `Bearer ${token}` };
  return {
    list: async () => ((await (await request.get("/api/v1/frames", { headers })).json()) as FrameList).frames,
    remove: (id: string) => request.delete(`/api/v1/frames/${id}`, { headers }),
  };
}

test("a frame pairs by its code, shows the photo of the memory it was given, and is back at pairing once removed in Settings", async ({
  page: frame,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  const tag = `frame-${Date.now().toString(36)}`;
  const name = `Hall ${tag}`;
  const api = memberApiAs(request, "frames");
  const photo = await api.uploadPhoto(await solidPng(640, 480, [40, 120, 200]));
  const memory = await api.createMemory({
    title: "Frame journey",
    content: null,
    memory_date: localDate(2),
    tags: [tag],
    photo_ids: [photo.id],
  });

  try {
    // The frame: no member's session, a code and a QR code.
    await frame.goto("/frame");
    const codeOnFrame = frame.getByTestId("frame-user-code");
    await expect(codeOnFrame).toHaveText(/^[A-Z]{4}-[A-Z]{4}$/);
    const code = (await codeOnFrame.textContent())!;
    await expect(frame.getByRole("img", { name: "QR code that opens the pairing page with this code" })).toBeVisible();
    await expect(frame.getByText(/^Open .+\/device on your phone and enter this code$/)).toBeVisible();
    await expectAccessible(frame, "the frame's pairing screen");
    await screenshotsAtWidths(frame, "frame-pairing");

    // The member's phone: the code as typed, the form, Allow.
    const phone = await memberPage(browser, "frames", "/device");
    await phone.getByLabel("Code").fill(code.toLowerCase().replace("-", " "));
    await phone.getByRole("button", { name: "Continue" }).click();
    await expect(phone.getByRole("heading", { level: 1, name: "Set up this frame" })).toBeVisible();
    await phone.getByLabel("Name").fill(name);
    await phone.getByRole("radio", { name: "Some tags" }).check();
    await phone.getByRole("checkbox", { name: tag }).check();
    await phone.getByRole("checkbox", { name: "Show a clock" }).check();
    await expectAccessible(phone, "the pairing form at /device");
    await screenshotsAtWidths(phone, "device-form");
    await phone.getByRole("button", { name: "Allow" }).click();
    await expect(phone.getByRole("heading", { level: 1, name: "The frame is ready" })).toBeVisible();
    await screenshotsAtWidths(phone, "device-ready");

    // The frame shows the memory's photo (its next poll, within the five seconds it was told), and the clock.
    const shown = frame.getByRole("img", { name: "Frame journey" });
    await expect(shown).toBeVisible({ timeout: 20_000 });
    await expect(shown).toHaveJSProperty("complete", true);
    expect(await shown.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBe(640);
    await expect(frame.getByTestId("frame-clock")).toBeVisible();
    await expect(frame.getByTestId("frame-user-code")).toHaveCount(0);
    await expectAccessible(frame, "the frame's slideshow");
    await screenshotsAtWidths(frame, "frame-slideshow");

    // Settings → Frames: the frame in words; removed.
    await phone.getByRole("link", { name: "Open Frames in Settings" }).click();
    const row = phone.getByRole("listitem", { name });
    await expect(row.getByText(`Shows memories tagged ${tag}`)).toBeVisible();
    await expect(row.getByText(/^Paired by Fran on /)).toBeVisible();
    await expectAccessible(phone, "Settings → Frames");
    await screenshotsAtWidths(phone, "settings-frames");
    await row.getByRole("button", { name: "Remove" }).click();
    const dialog = phone.getByRole("alertdialog", { name: `Remove ${name}?` });
    await expect(dialog.getByText("The frame goes dark within a minute.", { exact: false })).toBeVisible();
    await dialog.getByRole("button", { name: "Remove" }).click();
    await expect(row).toHaveCount(0);

    // The frame, at its next refresh (every 30 seconds): back at pairing, with a new code.
    await expect(
      frame.getByText("This frame was removed. To show memories here again, pair it with the code below."),
    ).toBeVisible({ timeout: 45_000 });
    await expect(frame.getByTestId("frame-user-code")).toHaveText(/^[A-Z]{4}-[A-Z]{4}$/);
    await expect(frame.getByTestId("frame-user-code")).not.toHaveText(code);
    expect(await frame.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("memory-box-frame")))).toEqual([]);
    await screenshotsAtWidths(frame, "frame-removed");
  } finally {
    const frames = framesApi(request);
    for (const left of (await frames.list().catch(() => [])).filter((other) => other.name === name)) await frames.remove(left.id);
    await api.deleteMemory(memory.id);
  }
});
