import AxeBuilder from "@axe-core/playwright";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Memory, MemoryInput, Photo } from "@memory-box/contract";
import { type APIRequestContext, expect, type Page } from "@playwright/test";
import sharp from "sharp";

/** What the browser journeys share: members invited and signed up as a person would be. */

// The same throw-away data folder the server of this run uses (scripts/test-e2e.mjs sets it).
const dataDir = process.env.E2E_DATA_DIR ?? "test-results/e2e-data";
const outbox = path.join(dataDir, "outbox");
export const password = "correct horse battery staple";

/** A fresh address per run, so reruns against a kept data folder never collide. */
export function freshEmail(name: string, domain = "example.com"): string {
  return `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@${domain}`;
}

/** Puts `email` on the invitation list the way an operator does, with the server's CLI; `owner` names an owner. */
export function invite(email: string, { owner = false }: { owner?: boolean } = {}): void {
  execFileSync("node", ["apps/server/dist/cli.js", "invite", ...(owner ? ["--owner"] : []), email], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: "pipe",
  });
}

/** A service-role token for the admin API, printed by the server's CLI as an operator gets one. */
export function serviceToken(): string {
  return execFileSync("node", ["apps/server/dist/cli.js", "service-token", "--days", "1"], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

/** Soft line breaks ("=\r\n") removed, then "=XX" bytes decoded as UTF-8. */
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

/** The newest mail in the outbox addressed to `email`, decoded; undefined while none has arrived. */
export function newestMailTo(email: string): string | undefined {
  const mails = fs.existsSync(outbox)
    ? fs
        .readdirSync(outbox)
        .filter((name) => name.endsWith(".eml"))
        .sort()
        .reverse()
    : [];
  for (const name of mails) {
    const mail = decodeQuotedPrintable(fs.readFileSync(path.join(outbox, name), "utf8"));
    if (mail.includes(email)) return mail;
  }
  return undefined;
}

/** `pattern`'s first group in the newest mail to `email`, waiting for the mail to arrive. */
export async function fromNewestMail(email: string, pattern: RegExp): Promise<string> {
  let found: string | undefined;
  await expect
    .poll(
      () => {
        found = pattern.exec(newestMailTo(email) ?? "")?.[1];
        return found;
      },
      { message: `a mail to ${email} in ${outbox} matching ${pattern}` },
    )
    .toBeTruthy();
  return found!;
}

/** The confirmation link from the newest mail in the outbox addressed to `email`. */
export async function confirmationLink(email: string): Promise<string> {
  return (await fromNewestMail(email, /(https?:\/\/[^\s"<>]+\/auth\/v1\/verify\?[^\s"<>]+)/)).replaceAll("&amp;", "&");
}

export async function fillCredentials(page: Page, email: string, secret: string): Promise<void> {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(secret);
}

/**
 * Invites a fresh address (as an owner with `owner`), signs it up on the page and opens the
 * confirmation link: lands on home. Returns the address.
 */
export async function signUpMember(page: Page, label: string, { owner = false }: { owner?: boolean } = {}): Promise<string> {
  const email = freshEmail(label);
  invite(email, { owner });
  await page.goto("/auth");
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await fillCredentials(page, email, password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  // A sign-up hashes the password (argon2): on a busy two-core machine its answer can take a while.
  await expect(page.getByText("Check your email for confirmation link")).toBeVisible({ timeout: 15_000 });
  await page.goto(await confirmationLink(email));
  await expect(page.getByText(/^Welcome back, /)).toBeVisible();
  return email;
}

/** The access token the page keeps in localStorage. */
export async function accessTokenOf(page: Page): Promise<string> {
  const token = await page.evaluate(
    () => (JSON.parse(localStorage.getItem("memory-box-auth") ?? "{}") as { access_token?: string }).access_token,
  );
  expect(token).toBeTruthy();
  return token!;
}

/**
 * Axe finds no problem on what the page shows now: none at all, or (`"serious"`) none rated
 * serious or critical.
 */
export async function expectAccessible(page: Page, screen: string, level: "all" | "serious" = "all"): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const counted =
    level === "all"
      ? violations
      : violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
  expect(
    counted.map(
      (violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    ),
    screen,
  ).toEqual([]);
}

/** The member's API, with the access token the page keeps in localStorage. */
export async function memberApi(page: Page, request: APIRequestContext) {
  const { origins } = await page.context().storageState();
  const stored = origins.flatMap((origin) => origin.localStorage).find((entry) => entry.name === "memory-box-auth")?.value;
  const token = (JSON.parse(stored ?? "{}") as { access_token?: string }).access_token;
  expect(token).toBeTruthy();
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async uploadPhoto(image: Buffer): Promise<Photo> {
      const response = await request.post("/api/v1/photos", {
        headers,
        multipart: { file: { name: "photo.png", mimeType: "image/png", buffer: image } },
      });
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

/** A decodable PNG of one colour, made here so the journeys need no image files. */
export function solidPng(width: number, height: number, [r, g, b]: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
}

/** This device's date `years` years back and `days` days off, as "YYYY-MM-DD" (a memory's date). */
export function localDate(years: number, days = 0): string {
  const date = new Date();
  date.setFullYear(date.getFullYear() - years);
  date.setDate(date.getDate() + days);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
