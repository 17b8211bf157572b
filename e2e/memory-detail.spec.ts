import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { deflateSync } from "node:zlib";
import { expect, test, type Page } from "@playwright/test";

// The same throw-away data folder the server of this run uses (scripts/test-e2e.mjs sets it).
const dataDir = process.env.E2E_DATA_DIR ?? "test-results/e2e-data";
const outbox = path.join(dataDir, "outbox");
const password = "correct horse battery staple";

function freshEmail(name: string): string {
  return `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

function invite(email: string): void {
  execFileSync("node", ["apps/server/dist/cli.js", "invite", email], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: "pipe",
  });
}

function decodeQuotedPrintable(text: string): string {
  const joined = text.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

async function confirmationLink(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      () => {
        const mails = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((name) => name.endsWith(".eml")).sort().reverse() : [];
        for (const name of mails) {
          const mail = decodeQuotedPrintable(fs.readFileSync(path.join(outbox, name), "utf8"));
          if (!mail.includes(email)) continue;
          link = /https?:\/\/[^\s"<>]+\/auth\/v1\/verify\?[^\s"<>]+/.exec(mail)?.[0]?.replaceAll("&amp;", "&");
          return link;
        }
        return undefined;
      },
      { message: `a confirmation mail to ${email} in ${outbox}` },
    )
    .toBeTruthy();
  return link!;
}

/** Invites a fresh address, signs it up and follows the confirmation link: signed in, at home. */
async function signUpMember(page: Page): Promise<void> {
  const email = freshEmail("journal");
  invite(email);
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Check your email for confirmation link")).toBeVisible();
  await page.goto(await confirmationLink(email));
  await expect(page.getByText(/^Welcome back, /)).toBeVisible();
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real, decodable PNG: `size`×`size` pixels of one RGB colour. */
function solidPng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", deflateSync(pixels)), chunk("IEND", Buffer.alloc(0))]);
}

test("a member adds a memory with photos, opens it, edits it and deletes it from its page", async ({ page }) => {
  test.setTimeout(60_000);
  await signUpMember(page);
  const title = `Lake weekend ${Date.now()}`;

  // Add: two generated PNGs and a text file, which is skipped without a word.
  await page.getByRole("button", { name: "Add Memory" }).first().click();
  const dialog = page.getByRole("dialog", { name: "Add Memory" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Save Memory" })).toBeDisabled();
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByLabel("Description").fill("Swam at dawn.\nPancakes after.");
  await dialog.getByLabel("Date").fill("2024-07-13");
  await dialog.getByLabel("Tags").fill("summer, lake, Summer");
  await dialog.getByLabel("Photos").setInputFiles([
    { name: "blue.png", mimeType: "image/png", buffer: solidPng(64, [40, 90, 200]) },
    { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not a photo") },
    { name: "green.png", mimeType: "image/png", buffer: solidPng(48, [30, 160, 70]) },
  ]);
  await expect(dialog.getByRole("img", { name: /^New photo/ })).toHaveCount(2);
  await dialog.getByRole("button", { name: "Save Memory" }).click();

  await expect(page.getByText("2 photo(s) added successfully.")).toBeVisible();
  await expect(page.getByText("Memory added!")).toBeVisible();
  await expect(dialog).toBeHidden();

  // Open it from the list.
  await page.getByRole("link", { name: title }).click();
  await expect(page).toHaveURL(/\/memory\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page.getByText("Jul 13, 2024")).toBeVisible();
  await expect(page.getByText("Swam at dawn.")).toBeVisible();
  const tags = page.getByRole("region", { name: "Tags" }).getByRole("listitem");
  await expect(tags).toHaveText(["summer", "lake"]);
  const photos = page.getByRole("region", { name: "Photos" }).getByRole("img");
  await expect(photos).toHaveCount(2);
  await expect(photos.first()).toHaveAttribute("alt", "Memory photo 1");
  await expect(photos.first()).toHaveAttribute("width", "64");
  await expect(page.getByRole("link", { name: "Memory photo 2" })).toHaveAttribute("target", "_blank");
  // The images load from their signed URLs (the ThumbHash placeholder is dropped on load).
  await expect(photos.first()).toHaveAttribute("data-loaded", "true");
  await expect(photos.nth(1)).toHaveAttribute("data-loaded", "true");
  await expect(page.getByText("Created", { exact: true })).toBeVisible();
  await expect(page.getByText("Updated", { exact: true })).toHaveCount(0);

  // Edit, then cancel: back to the details, unchanged.
  await page.getByRole("button", { name: "Edit" }).click();
  await expect(page.getByRole("button", { name: "Back to Details" })).toBeVisible();
  await page.getByLabel("Title").fill("Not saved");
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();

  // Edit and save: a new title, the first photo removed.
  await page.getByRole("button", { name: "Edit" }).click();
  await page.getByLabel("Title").fill(`${title} (edited)`);
  await page.getByRole("button", { name: "Remove photo 1" }).click();
  await expect(page.getByRole("button", { name: /^Remove photo \d$/ })).toHaveCount(1);
  await page.getByRole("button", { name: "Update Memory" }).click();
  await expect(page.getByText("Memory updated!")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: `${title} (edited)` })).toBeVisible();
  await expect(page.getByRole("region", { name: "Photos" }).getByRole("img")).toHaveCount(1);
  await expect(page.getByText("Updated", { exact: true })).toBeVisible();

  // Delete from the page: a click outside does not dismiss the question.
  await page.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog", { name: "Delete Memory" });
  await expect(confirm).toContainText("Are you sure you want to delete this memory? This action cannot be undone.");
  await page.mouse.click(5, 5);
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Your memory has been deleted successfully.")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("link", { name: `${title} (edited)` })).toHaveCount(0);
});
