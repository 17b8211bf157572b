import { serverMessages } from "@memory-box/messages/server";
import { describe, expect, it } from "vitest";
import { renderEmail, renderInvitation, renderNotice, type EmailKind, type NoticeData, type NoticeKind } from "./templates";

/**
 * Every mail in Japanese, from the catalogue's ja/mail.json, kept as a file to read: the words a
 * Japanese-speaking member gets.
 */
const japanese = serverMessages("ja");
const link = "https://memories.example.org/auth/v1/verify?token=abc123&type=recovery";
const code = "482913";
const email = "yui@example.org";
const changedAt = new Date("2026-11-24T09:05:00Z");

const linkKinds: EmailKind[] = ["confirmation", "magic_link", "recovery", "invite", "email_change", "reauthentication"];
const noticeCases: [NoticeKind, Omit<NoticeData, "email" | "changedAt">][] = [
  ["password_changed", {}],
  ["email_changed", { newEmail: "yui@new.example.org" }],
  ["factor_added", { factor: "security key" }],
  ["recovery_code_used", { recoveryCodesLeft: 0 }],
  ["recovery_code_used", { recoveryCodesLeft: 9 }],
  ["identity_linked", { provider: "Google", providerAccount: "yui@gmail.com" }],
  ["wallet_linked", { wallet: { chain: "Ethereum", address: "0x52908400098527886E0F7030069857D2E4169EE7" } }],
  ["wallet_linked", {}],
];

function everyJapaneseMail(): Record<string, { subject: string; text: string; html: string }> {
  const mails: Record<string, { subject: string; text: string; html: string }> = {};
  for (const kind of linkKinds)
    mails[`link ${kind}`] = renderEmail(kind, { link, code, email, newEmail: "yui@new.example.org" }, japanese);
  noticeCases.forEach(([kind, extra], index) => {
    mails[`notice ${index} ${kind}`] = renderNotice(kind, { email, changedAt, ...extra }, japanese);
  });
  mails["invitation"] = renderInvitation({ email, link, inviterName: "Ann" }, japanese);
  return mails;
}

describe("the Japanese mails", () => {
  const mails = everyJapaneseMail();

  it("are Japanese throughout: no English word of the English mails is left", () => {
    for (const [name, mail] of Object.entries(mails)) {
      expect({ name, lang: mail.html.includes('<html lang="ja">') }).toEqual({ name, lang: true });
      expect(mail.text).toMatch(/^こんにちは。\n/);
      expect(mail.text).not.toMatch(/\b(the|your|you|if|was|were|this|at)\b/i);
    }
  });

  it("date a notice the Japanese way, year first, in UTC", () => {
    expect(mails["notice 0 password_changed"]!.text).toContain(
      "Memory Boxアカウント（yui@example.org）のパスワードが2026年11月24日 09:05（UTC）に変更されました。",
    );
  });

  it("count the recovery codes left, and say when none are", () => {
    expect(mails["notice 3 recovery_code_used"]!.text).toContain("リカバリーコードはもう残っていません。");
    expect(mails["notice 4 recovery_code_used"]!.text).toContain("リカバリーコードは残り9個です。");
  });

  it("read as kept in the file", async () => {
    await expect(JSON.stringify(mails, null, 2) + "\n").toMatchFileSnapshot("./__snapshots__/japanese-mails.json");
  });
});
