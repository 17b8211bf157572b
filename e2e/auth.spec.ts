import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";

// The same throw-away data folder the server of this run uses (scripts/test-e2e.mjs sets it).
const dataDir = process.env.E2E_DATA_DIR ?? "test-results/e2e-data";
const outbox = path.join(dataDir, "outbox");
const password = "correct horse battery staple";

/** A fresh address per run, so reruns against a kept data folder never collide. */
function freshEmail(name: string): string {
  return `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Puts `email` on the invitation list the way an operator does, with the server's CLI. */
function invite(email: string): void {
  execFileSync("node", ["apps/server/dist/cli.js", "invite", email], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdio: "pipe",
  });
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

/** The confirmation link from the newest mail in the outbox addressed to `email`. */
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

async function fillCredentials(page: Page, email: string, secret: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(secret);
}

test("an address that is not invited is turned away", async ({ page }) => {
  await page.goto("/auth");
  await fillCredentials(page, freshEmail("stranger"), password);
  await page.getByRole("button", { name: "Sign In" }).click();

  await expect(page.getByText("Access Denied")).toBeVisible();
  await expect(page.getByText("This email address is not invited to access the platform")).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});

test("an invited member signs up, confirms by e-mail, signs out and signs back in where they were heading", async ({ page }) => {
  const email = freshEmail("member");
  const name = email.split("@")[0]!;
  invite(email);

  // A visitor is sent to the auth screen.
  await page.goto("/");
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole("heading", { name: "Welcome to Memory Box" })).toBeVisible();

  // Sign up: the account waits for confirmation.
  await page.getByRole("tab", { name: "Sign Up" }).click();
  await expect(page.getByLabel("Password")).toHaveAttribute("placeholder", "Create a password");
  await fillCredentials(page, email, password);
  await page.getByRole("button", { name: "Sign Up" }).click();
  await expect(page.getByText("Check your email for confirmation link")).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);

  // The link in the mail signs them in and lands on home.
  await page.goto(await confirmationLink(email));
  await expect(page.getByText(`Welcome back, ${name}!`)).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/");
  await expect(page.getByRole("heading", { name: "Memory Box" })).toBeVisible();

  // The session survives a reload.
  await page.reload();
  await expect(page.getByText(`Welcome back, ${name}!`)).toBeVisible();

  // Sign out.
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page).toHaveURL(/\/auth$/);

  // A member screen remembers where the visitor was heading; signing in goes there.
  await page.goto("/memory/3f1c2a9e-0000-4000-8000-000000000000");
  await expect(page).toHaveURL(/\/auth\?next=\/memory\/3f1c2a9e-0000-4000-8000-000000000000$/);
  await fillCredentials(page, email, "not the password");
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page.getByText("Authentication Error")).toBeVisible();

  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/memory\/3f1c2a9e-0000-4000-8000-000000000000$/);
});
