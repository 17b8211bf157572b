import { serverMessages } from "@memory-box/messages/server";
import { describe, expect, it } from "vitest";
import { renderEmail, renderInvitation, renderNotice, type EmailKind, type NoticeData, type NoticeKind } from "./templates";

/**
 * Every mail in German, from the catalogue's de/mail.json, kept as a file to read: the words a
 * German-speaking member gets. German is not offered yet; the catalogue has it already.
 */
const german = serverMessages("de");
const link = "https://memories.example.org/auth/v1/verify?token=abc123&type=recovery";
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
  ["identity_linked", {}],
  ["identity_unlinked", { provider: "Keycloak" }],
  ["wallet_linked", { wallet: { chain: "Ethereum", address: "0x52908400098527886E0F7030069857D2E4169EE7" } }],
  ["wallet_linked", {}],
  ["wallet_unlinked", { wallet: { chain: "Solana", address: "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv" } }],
];

function everyGermanMail(): Record<string, { subject: string; text: string; html: string }> {
  const mails: Record<string, { subject: string; text: string; html: string }> = {};
  for (const kind of linkKinds)
    mails[`link ${kind}`] = renderEmail(kind, { link, code, email, newEmail: "zoe@new.example.org" }, german);
  noticeCases.forEach(([kind, extra], index) => {
    mails[`notice ${index} ${kind}`] = renderNotice(kind, { email, changedAt, ...extra }, german);
  });
  mails["invitation"] = renderInvitation({ email, link, inviterName: "Ann" }, german);
  return mails;
}

describe("the German mails", () => {
  const mails = everyGermanMail();

  it("are German throughout: no English sentence of the English mails is left", () => {
    for (const [name, mail] of Object.entries(mails)) {
      expect({ name, lang: mail.html.includes('<html lang="de">') }).toEqual({ name, lang: true });
      expect(mail.text).toMatch(/^Hallo,\n/);
      expect(mail.text).not.toMatch(/\b(the|your|you|if|was|were|this)\b/i);
    }
  });

  it("date a notice the German way, in UTC", () => {
    expect(mails["notice 0 password_changed"]!.text).toContain(
      "Das Passwort des Kontos zoe@example.org bei Memory Box wurde am 24. November 2026 um 09:05 Uhr UTC geändert.",
    );
  });

  it("count the recovery codes left with German plurals", () => {
    expect(mails["notice 7 recovery_code_used"]!.text).toContain("Du hast keine Wiederherstellungscodes mehr");
    expect(mails["notice 8 recovery_code_used"]!.text).toContain("Du hast noch 1 Wiederherstellungscode.");
    expect(mails["notice 9 recovery_code_used"]!.text).toContain("Du hast noch 9 Wiederherstellungscodes.");
  });

  it("read as kept in the file", async () => {
    await expect(JSON.stringify(mails, null, 2) + "\n").toMatchFileSnapshot("./__snapshots__/german-mails.json");
  });
});
