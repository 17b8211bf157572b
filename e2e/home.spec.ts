import AxeBuilder from "@axe-core/playwright";
import type { Memory, MemoryInput, Photo } from "@memory-box/contract";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";

// The same throw-away data folder the server of this run uses (scripts/test-e2e.mjs sets it).
const dataDir = process.env.E2E_DATA_DIR ?? "test-results/e2e-data";
const outbox = path.join(dataDir, "outbox");
const password = "correct horse battery staple";

function freshEmail(name: string): string {
  return `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

function invite(email: string): void {
  execFileSync("node", ["apps/server/dist/cli.js", "invite", email], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" }, stdio: "pipe" });
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
    .poll(() => {
      const mails = fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((name) => name.endsWith(".eml")).sort().reverse() : [];
      for (const name of mails) {
        const mail = decodeQuotedPrintable(fs.readFileSync(path.join(outbox, name), "utf8"));
        if (!mail.includes(email)) continue;
        link = /https?:\/\/[^\s"<>]+\/auth\/v1\/verify\?[^\s"<>]+/.exec(mail)?.[0]?.replaceAll("&amp;", "&");
        return link;
      }
      return undefined;
    })
    .toBeTruthy();
  return link!;
}

/** Invites a new member, signs them up and confirms by e-mail; ends on the home screen. */
async function signUpMember(page: Page): Promise<void> {
  const email = freshEmail("home");
  invite(email);
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Check your email for confirmation link")).toBeVisible();
  await page.goto(await confirmationLink(email));
  await expect(page.getByRole("heading", { name: "Memory Box" })).toBeVisible();
}

/** The member's API, with the access token the page keeps in localStorage. */
async function memberApi(page: Page, request: APIRequestContext) {
  const { origins } = await page.context().storageState();
  const stored = origins.flatMap((origin) => origin.localStorage).find((entry) => entry.name === "memory-box-auth")?.value;
  const token = (JSON.parse(stored ?? "{}") as { access_token?: string }).access_token;
  expect(token).toBeTruthy();
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async uploadPhoto(png: Buffer): Promise<Photo> {
      const response = await request.post("/api/v1/photos", { headers, multipart: { file: { name: "photo.png", mimeType: "image/png", buffer: png } } });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()) as Photo;
    },
    async createMemory(input: MemoryInput): Promise<Memory> {
      const response = await request.post("/api/v1/memories", { headers, data: input });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()) as Memory;
    },
  };
}

/** A solid-colour PNG, made here so the test needs no image files. */
function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Buffer {
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set([r, g, b], 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", header), chunk("IDAT", zlib.deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

test("the home screen lists, searches, filters and deletes memories, and shows others' additions live", async ({ page, request }) => {
  await signUpMember(page);
  // The collection is shared by every member, so other tests' memories may exist: start from a
  // unique word and filter by it where the count matters.
  const run = `run${Date.now().toString(36)}`;

  const countLine = page.getByText(/^\d+ memories$/);
  await expect(page.getByText("No memories yet").or(countLine)).toBeVisible();
  const before = (await countLine.isVisible()) ? Number(/^\d+/.exec((await countLine.textContent()) ?? "")?.[0]) : 0;

  // Added through the API (as another member's device would): the open page picks them up live.
  const api = await memberApi(page, request);
  const photos = [await api.uploadPhoto(solidPng(64, 48, [200, 120, 80])), await api.uploadPhoto(solidPng(48, 64, [80, 120, 200]))];
  await api.createMemory({ title: `Lisbon ${run}`, content: "Trams and tiles.", memory_date: "2023-06-01", tags: [`travel-${run}`, "food"], photo_ids: photos.map((photo) => photo.id) });
  await api.createMemory({ title: `Picnic ${run}`, content: "By the lake.", memory_date: "2023-05-20", tags: [`travel-${run}`] });
  await api.createMemory({ title: `First date ${run}`, content: null, memory_date: null, tags: null });

  await expect(page.getByText(`${before + 3} memories`)).toBeVisible();
  const lisbon = page.locator("[data-slot=card]", { has: page.getByRole("link", { name: `Lisbon ${run}` }) });
  await expect(lisbon.getByText("Jun 1, 2023")).toBeVisible();
  await expect(lisbon.getByRole("img", { name: "Memory photo 2" })).toBeVisible();
  // The thumbnails really load through their signed URLs, at their intrinsic size.
  await expect.poll(() => lisbon.getByRole("img", { name: "Memory photo 1" }).evaluate((element) => {
        const image = element as unknown as { complete: boolean; naturalWidth: number };
        return image.complete && image.naturalWidth > 0;
      })).toBe(true);
  await expect(lisbon.getByRole("img", { name: "Memory photo 1" })).toHaveAttribute("width", String(photos[0]!.width));

  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`)).toEqual([]);

  // Search goes to the API and covers the whole collection.
  const search = page.getByRole("searchbox", { name: "Search memories" });
  await search.fill(`lisbon ${run}`);
  await expect(page.getByText(`1 of ${before + 3} memories`)).toBeVisible();
  await expect(page.getByRole("link", { name: `Picnic ${run}` })).toHaveCount(0);

  // Search plus tag; clicking the active tag clears it.
  await search.fill(run);
  await expect(page.getByText(`3 of ${before + 3} memories`)).toBeVisible();
  const filter = page.getByRole("group", { name: "Filter by tag" });
  const travel = filter.getByRole("button", { name: `travel-${run}` });
  // Only the five most used tags are offered; in this run's fresh collection this one is among them.
  await travel.click();
  await expect(travel).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByText(`2 of ${before + 3} memories`)).toBeVisible();
  await travel.click();
  await expect(filter.getByRole("button", { name: "All Tags" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByText(`3 of ${before + 3} memories`)).toBeVisible();

  // Nothing matches: Clear Filters resets everything.
  await search.fill(`nothing-${run}`);
  await expect(page.getByRole("heading", { name: "No memories found" })).toBeVisible();
  await page.getByRole("button", { name: "Clear Filters" }).click();
  await expect(search).toHaveValue("");
  await expect(page.getByText(`${before + 3} memories`)).toBeVisible();

  // Delete from the card, after confirming.
  await page.getByRole("button", { name: `Delete Picnic ${run}` }).click();
  const confirm = page.getByRole("alertdialog", { name: "Are you sure you want to delete this memory?" });
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("Memory deleted")).toBeVisible();
  await expect(page.getByText("Your memory has been removed.")).toBeVisible();
  await expect(page.getByRole("link", { name: `Picnic ${run}` })).toHaveCount(0);
  await expect(page.getByText(`${before + 2} memories`)).toBeVisible();

  // The card leads to the memory's page.
  await page.getByRole("link", { name: `Lisbon ${run}` }).click();
  await expect(page).toHaveURL(/\/memory\/[0-9a-f-]{36}$/);
});
