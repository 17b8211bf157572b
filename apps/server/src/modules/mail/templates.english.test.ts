import { describe, expect, it } from "vitest";
import { renderEmail, renderInvitation, renderNotice, type EmailKind, type NoticeData, type NoticeKind } from "./templates";

/**
 * The English of every mail, byte for byte, as it was before the texts moved into the catalogue:
 * each template, each variant a template has (a code alone, another site name, each plural, each
 * provider and wallet form), subject, plain text and HTML.
 */
const link = "https://memories.example.org/auth/v1/verify?token=abc123&type=magiclink&redirect_to=https%3A%2F%2Fm.example.org%2F";
const code = "482913";
const email = "zoe@example.org";
const changedAt = new Date("2026-11-24T09:05:00Z");

const linkKinds: EmailKind[] = ["confirmation", "magic_link", "recovery", "invite", "email_change", "reauthentication"];
const noticeCases: [NoticeKind, Omit<NoticeData, "email" | "changedAt">][] = [
  ["password_changed", {}],
  ["email_changed", { newEmail: "zoe@new.example.org" }],
  ["email_changed", {}],
  ["factor_added", {}],
  ["factor_added", { factor: "security key" }],
  ["factors_removed", {}],
  ["factor_locked", {}],
  ["recovery_code_used", { recoveryCodesLeft: 0 }],
  ["recovery_code_used", { recoveryCodesLeft: 1 }],
  ["recovery_code_used", { recoveryCodesLeft: 9 }],
  ["recovery_codes_locked", {}],
  ["passkey_added", {}],
  ["passkey_removed", {}],
  ["identity_linked", { provider: "Google", providerAccount: "zoe@gmail.com" }],
  ["identity_linked", { provider: "Keycloak" }],
  ["identity_linked", {}],
  ["identity_unlinked", { provider: "GitHub", providerAccount: "https://x.example/@zoe" }],
  ["identity_unlinked", {}],
  ["wallet_linked", { wallet: { chain: "Ethereum", address: "0x52908400098527886E0F7030069857D2E4169EE7" } }],
  ["wallet_linked", { wallet: { chain: "Solana", address: "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv" } }],
  ["wallet_linked", {}],
  ["wallet_unlinked", { wallet: { chain: "Ethereum", address: "not an address" } }],
];

function everyEnglishMail(): Record<string, unknown> {
  const mails: Record<string, unknown> = {};
  for (const kind of linkKinds) {
    mails[`link ${kind}`] = renderEmail(kind, { link, code, email, newEmail: "zoe@new.example.org" });
    mails[`link ${kind}, code only`] = renderEmail(kind, { code, email });
    mails[`link ${kind}, site name`] = renderEmail(kind, { link, code, email: '"<z>"@x.org', siteName: "Our <Little> Box" });
  }
  noticeCases.forEach(([kind, extra], index) => {
    mails[`notice ${index} ${kind}`] = renderNotice(kind, { email, changedAt, ...extra });
  });
  mails["notice site name"] = renderNotice("password_changed", { email, changedAt, siteName: "Our Box" });
  mails["notice evening"] = renderNotice("passkey_added", { email, changedAt: new Date("2026-01-03T23:59:00Z") });
  mails["invitation"] = renderInvitation({ email, link, inviterName: "Ann" });
  mails["invitation site name"] = renderInvitation({ email, link, inviterName: "<Ann & Bo>", siteName: "Our Box" });
  return mails;
}

describe("the English mails", () => {
  it("are byte-identical to the texts written before the catalogue", async () => {
    await expect(JSON.stringify(everyEnglishMail(), null, 2) + "\n").toMatchFileSnapshot("./__snapshots__/english-mails.json");
  });
});
