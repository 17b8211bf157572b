import { generateKeyPairSync, sign } from "node:crypto";
import { type Page } from "@playwright/test";
import { expect, test } from "./fixtures";
import { fromNewestMail, signIn } from "./support";

// A Solana wallet in the browser, as Phantom injects one (`window.solana`: connect, publicKey,
// signMessage), with a key generated here: the page asks it to sign, and the signing is done by this
// process with Node's ed25519, so the server checks a real signature by a real key (ADR 0035).

const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/** Base58, as Solana writes addresses. */
function base58(bytes: Uint8Array): string {
  let number = BigInt(`0x${Buffer.from(bytes).toString("hex") || "0"}`);
  let text = "";
  while (number > 0n) {
    text = alphabet[Number(number % 58n)]! + text;
    number /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

/** Gives the page a Solana wallet whose key stays in this process. Answers the wallet's address. */
async function installSolanaWallet(page: Page): Promise<string> {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  const address = base58(Buffer.from(publicKey.export({ format: "jwk" }).x!, "base64url"));
  await page.exposeFunction("e2eSolanaSign", (bytes: number[]) => [...sign(null, Buffer.from(bytes), privateKey)]);
  await page.addInitScript((walletAddress) => {
    const signer = (window as unknown as { e2eSolanaSign: (bytes: number[]) => Promise<number[]> }).e2eSolanaSign;
    const wallet = {
      publicKey: null as { toBase58(): string } | null,
      connect: async () => {
        wallet.publicKey = { toBase58: () => walletAddress };
        return { publicKey: wallet.publicKey };
      },
      signMessage: async (message: Uint8Array) => ({
        signature: new Uint8Array(await signer([...message])),
        publicKey: wallet.publicKey,
      }),
    };
    (window as unknown as { solana: typeof wallet }).solana = wallet;
  }, address);
  return address;
}

const greeting = (page: Page) => page.getByText(/^Welcome back, wallet-/).filter({ visible: true });

test("a member connects a Solana wallet in Settings, then signs in with it from /auth", async ({ page }) => {
  test.setTimeout(60_000);
  const address = await installSolanaWallet(page);
  const email = await signIn(page, "wallet");

  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByText("No account is connected.")).toBeVisible();
  await page.getByRole("button", { name: "Connect a Solana wallet" }).click();
  await expect(page.getByText("Wallet connected")).toBeVisible();
  const shortened = `${address.slice(0, 4)}…${address.slice(-4)}`;
  await expect(page.getByRole("list", { name: "Connected accounts" }).getByRole("listitem")).toHaveText([
    `Wallet · ${shortened}Disconnect`,
  ]);
  // The member's address is told which wallet, as of every new way in.
  await fromNewestMail(email, new RegExp(`(The Solana wallet ${shortened} was connected)`));

  await page.goto("/");
  await page.getByRole("button", { name: "Sign Out" }).click();
  await expect(page.getByRole("tab", { name: "Sign In" })).toBeVisible();
  await page.getByRole("button", { name: "Continue with Solana wallet" }).click();
  await expect(greeting(page)).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/");
});
