import { describe, expect, it } from "vitest";
import { extractLink } from "../../../test/smtp-test-server";
import { escapeHtml, renderEmail, renderInvitation, renderNotice, type EmailKind } from "./templates";

const link =
  "https://memories.example.org/auth/v1/verify?token=abc123&type=magiclink&redirect_to=https%3A%2F%2Fmemories.example.org%2F";
const code = "482913";
const email = "zoe@example.org";

const subjects: Record<EmailKind, string> = {
  confirmation: "Confirm your Memory Box account",
  magic_link: "Your Memory Box sign-in link",
  recovery: "Reset your Memory Box password",
  invite: "You're invited to Memory Box",
  email_change: "Confirm your new email address",
  reauthentication: "Your Memory Box confirmation code",
};
const kinds = Object.keys(subjects) as EmailKind[];
const linkKinds = kinds.filter((kind) => kind !== "reauthentication");

describe("renderEmail", () => {
  it.each(kinds)("renders %s with its subject, the code, and a self-contained HTML body", (kind) => {
    const mail = renderEmail(kind, { link, code, email });
    expect(mail.subject).toBe(subjects[kind]);
    expect(mail.text).toContain(code);
    expect(mail.html).toContain(code);
    expect(mail.html).toMatch(/^<!doctype html>/);
    // No remote content, trackers or style sheets: inline styles only.
    expect(mail.html).not.toMatch(/<img|<script|<style|<link|src=|url\(/i);
  });

  it.each(linkKinds)("offers the link in %s as a button and as a plain URL, with the code as the alternative", (kind) => {
    const mail = renderEmail(kind, { link, code, email });
    expect(extractLink(mail.text)).toBe(link);
    expect(mail.text).toContain(`Or enter this code instead: ${code}`);
    const escaped = escapeHtml(link);
    expect(escaped).toContain("&amp;");
    expect(mail.html.split(`href="${escaped}"`)).toHaveLength(3);
    expect(mail.html).toContain(`>${escaped}</a>`);
  });

  it("gives reauthentication only a code, even when a link is passed", () => {
    const mail = renderEmail("reauthentication", { link, code, email });
    expect(mail.text).not.toContain("http");
    expect(mail.html).not.toContain("<a ");
    expect(mail.text).toContain(`Your code: ${code}`);
  });

  it("falls back to the code alone when a link kind has no link", () => {
    const mail = renderEmail("magic_link", { code, email });
    expect(mail.text).not.toContain("http");
    expect(mail.html).not.toContain("<a ");
    expect(mail.text).toContain(`Your code: ${code}`);
  });

  it("names the addresses the mail is about", () => {
    expect(renderEmail("confirmation", { link, code, email }).text).toContain(email);
    expect(renderEmail("recovery", { link, code, email }).text).toContain(email);
    expect(renderEmail("email_change", { link, code, email, newEmail: "zoe@new.example.org" }).text).toContain(
      "zoe@new.example.org",
    );
  });

  it("uses the site name instead of Memory Box", () => {
    const mail = renderEmail("invite", { link, code, email, siteName: "Our Little Box" });
    expect(mail.subject).toBe("You're invited to Our Little Box");
    expect(mail.text).not.toContain("Memory Box");
  });

  it.each(kinds)("escapes every interpolated value in the HTML of %s", (kind) => {
    const hostile = '"<script>alert(1)</script>"@x.org';
    const mail = renderEmail(kind, {
      link: `https://x.org/?q="><script>alert(2)</script>`,
      code: "<b>1</b>",
      email: hostile,
      newEmail: hostile,
      siteName: "<i>Box</i>",
    });
    expect(mail.html).not.toMatch(/<script|<b>|<i>/);
    expect(mail.html).toContain("&lt;i&gt;Box&lt;/i&gt;");
    if (kind === "confirmation" || kind === "recovery" || kind === "email_change") {
      expect(mail.html).toContain("&quot;&lt;script&gt;alert(1)&lt;/script&gt;&quot;@x.org");
      // The plain-text part is not HTML: it keeps the address as typed.
      expect(mail.text).toContain(hostile);
    }
  });
});

describe("renderNotice", () => {
  const changedAt = new Date("2026-11-24T09:05:00Z");

  it("says that the password changed, for which address and when, with no link and no code", () => {
    const mail = renderNotice("password_changed", { email, changedAt });
    expect(mail.subject).toBe("Your Memory Box password was changed");
    expect(mail.text).toContain(
      "The password of the Memory Box account for zoe@example.org was changed on 24 November 2026 at 09:05 UTC.",
    );
    expect(mail.text).not.toMatch(/https?:|code/i);
    expect(mail.html).not.toMatch(/<a |https?:|<img|<script|<style/i);
    expect(mail.html).toMatch(/^<!doctype html>/);
  });

  it("names the old and the new address of an address change", () => {
    const mail = renderNotice("email_changed", { email, newEmail: "zoe@new.example.org", changedAt });
    expect(mail.subject).toBe("Your Memory Box email address was changed");
    expect(mail.text).toContain(
      "The Memory Box account that used zoe@example.org was moved to zoe@new.example.org on 24 November 2026 at 09:05 UTC.",
    );
  });

  it("says a recovery code was used and how many are left, without any code or link", () => {
    const used = renderNotice("recovery_code_used", { email, changedAt, recoveryCodesLeft: 9 });
    expect(used.subject).toBe("A recovery code was used for your Memory Box account");
    expect(used.text).toContain(
      "A recovery code was used instead of the second step to sign in to the Memory Box account for zoe@example.org on 24 November 2026 at 09:05 UTC.",
    );
    expect(used.text).toContain("You have 9 recovery codes left.");
    expect(used.text).not.toMatch(/https?:/);
    expect(renderNotice("recovery_code_used", { email, changedAt, recoveryCodesLeft: 1 }).text).toContain(
      "You have 1 recovery code left.",
    );
    expect(renderNotice("recovery_code_used", { email, changedAt, recoveryCodesLeft: 0 }).text).toContain(
      "You have no recovery codes left: make new ones in Settings, under Two-step verification.",
    );
  });

  it("names the provider and its account when one is connected or disconnected", () => {
    const linked = renderNotice("identity_linked", { email, changedAt, provider: "Google", providerAccount: "zoe@gmail.com" });
    expect(linked.subject).toBe("Google was connected to your Memory Box account");
    expect(linked.text).toContain(
      "The Google account zoe@gmail.com was connected to the Memory Box account for zoe@example.org on 24 November 2026 at 09:05 UTC. It can now sign in to this account.",
    );
    expect(linked.text).toContain("you can disconnect it in Settings, under Connected accounts.");
    const unlinked = renderNotice("identity_unlinked", { email, changedAt, provider: "Keycloak" });
    expect(unlinked.subject).toBe("Keycloak was disconnected from your Memory Box account");
    expect(unlinked.text).toContain(
      "The Keycloak account was disconnected from the Memory Box account for zoe@example.org on 24 November 2026 at 09:05 UTC. It no longer signs in to this account.",
    );
  });

  it("names a connected or disconnected wallet by its chain and shortened address", () => {
    const address = "0x52908400098527886E0F7030069857D2E4169EE7";
    const linked = renderNotice("wallet_linked", { email, changedAt, wallet: { chain: "Ethereum", address } });
    expect(linked.subject).toBe("An Ethereum wallet was connected to your Memory Box account");
    expect(linked.text).toContain(
      "The Ethereum wallet 0x5290…9EE7 was connected to the Memory Box account for zoe@example.org on 24 November 2026 at 09:05 UTC. It can now sign in to this account.",
    );
    expect(linked.text).not.toContain(address);
    const unlinked = renderNotice("wallet_unlinked", {
      email,
      changedAt,
      wallet: { chain: "Solana", address: "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv" },
    });
    expect(unlinked.subject).toBe("A Solana wallet was disconnected from your Memory Box account");
    expect(unlinked.text).toContain(
      "The Solana wallet 7S3P…AaKv was disconnected from the Memory Box account for zoe@example.org",
    );
    // Anything but letters and digits is left out rather than shown.
    const odd = renderNotice("wallet_linked", {
      email,
      changedAt,
      wallet: { chain: "Ethereum", address: "https://x.example/0x1234" },
    });
    expect(odd.text).toContain("An Ethereum wallet was connected to the Memory Box account");
    expect(odd.text).not.toContain("example/");
  });

  it("leaves out a provider account that does not look like an address: a notice carries no link", () => {
    for (const providerAccount of ["https://phish.example.org/@x", "see www.phish.example.org", "x@phish.example.org/login"]) {
      const mail = renderNotice("identity_linked", { email, changedAt, provider: "Google", providerAccount });
      expect(mail.text).toContain("The Google account was connected");
      expect(mail.text).not.toContain("phish");
    }
  });

  it("escapes the addresses in the HTML", () => {
    const hostile = '"<script>alert(1)</script>"@x.org';
    const mail = renderNotice("email_changed", { email: hostile, newEmail: hostile, changedAt, siteName: "<i>Box</i>" });
    expect(mail.html).not.toMatch(/<script|<i>/);
  });
});

describe("renderInvitation", () => {
  const invitationLink = "https://memories.example.org/auth?view=signup&email=zoe%40example.org";

  it("names who invites and the address to sign up with, with the link in both parts and no code", () => {
    const mail = renderInvitation({ email, link: invitationLink, inviterName: "Ann" });
    expect(mail.subject).toBe("Ann invited you to Memory Box");
    expect(mail.text).toContain("Ann invited you to join their Memory Box");
    expect(mail.text).toContain(`sign up with this address (${email})`);
    expect(extractLink(mail.text)).toBe(invitationLink);
    expect(mail.text).not.toMatch(/code/i);
    expect(mail.html).toContain("Accept the invitation");
    expect(mail.html).toContain(escapeHtml(invitationLink));
    expect(mail.html).not.toMatch(/<img|<script|<style|<link|src=|url\(/i);
  });

  it("escapes the inviter's name in the HTML", () => {
    const mail = renderInvitation({ email, link: invitationLink, inviterName: '<b onclick="x">Ann</b>' });
    expect(mail.html).not.toContain("<b onclick");
    expect(mail.html).toContain("&lt;b onclick=&quot;x&quot;&gt;Ann&lt;/b&gt;");
  });
});

describe("escapeHtml", () => {
  it("escapes the five characters that matter in content and quoted attributes", () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;");
  });
});
