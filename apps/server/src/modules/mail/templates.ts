import type { LinkMail, LinkMailKind, NoticeKind, NoticeMail } from "../auth";

// The mails the auth service sends are the ones it declares (its AuthMailer): the templates render those.
export type EmailKind = LinkMailKind;
export type { NoticeKind };

export interface EmailData extends LinkMail {
  siteName?: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

/** The words of one mail. Paragraphs are plain text: the HTML is derived from them, escaped. */
interface Copy {
  subject: string;
  intro: string[];
  /** The button's label; absent for a mail that carries only a code. */
  action?: string;
  outro: string[];
}

const copies: Record<EmailKind, (site: string, data: EmailData) => Copy> = {
  confirmation: (site, { email }) => ({
    subject: `Confirm your ${site} account`,
    intro: [
      "Hello,",
      `Welcome to ${site}! Please confirm that ${email} is your email address to finish setting up your account.`,
    ],
    action: "Confirm my account",
    outro: ["If you didn't sign up, you can safely ignore this email."],
  }),
  magic_link: (site) => ({
    subject: `Your ${site} sign-in link`,
    intro: ["Hello,", `Here is your link to sign in to ${site}.`],
    action: `Sign in to ${site}`,
    outro: ["If you didn't ask to sign in, you can safely ignore this email."],
  }),
  recovery: (site, { email }) => ({
    subject: `Reset your ${site} password`,
    intro: ["Hello,", `Someone, hopefully you, asked to reset the password of the ${site} account for ${email}.`],
    action: "Choose a new password",
    outro: ["If you didn't ask for this, you can ignore this email; your password stays as it is."],
  }),
  invite: (site) => ({
    subject: `You're invited to ${site}`,
    intro: ["Hello,", `You've been invited to join ${site}, a private place to keep your shared memories.`],
    action: "Accept the invitation",
    outro: ["If you weren't expecting this invitation, you can safely ignore this email."],
  }),
  email_change: (site, { email, newEmail }) => ({
    subject: "Confirm your new email address",
    intro: ["Hello,", `Please confirm that you want to use ${newEmail ?? email} for your ${site} account from now on.`],
    action: "Confirm my new address",
    outro: ["If you didn't ask for this change, you can ignore this email; your address stays as it is."],
  }),
  reauthentication: (site) => ({
    subject: `Your ${site} confirmation code`,
    intro: ["Hello,", `To confirm it's really you, enter this code in ${site}:`],
    outro: ["If you didn't ask for a code, you can ignore this email, but it may be worth changing your password."],
  }),
};

/** Renders one transactional mail as a subject and matching plain-text and HTML bodies. */
export function renderEmail(kind: EmailKind, data: EmailData): RenderedEmail {
  const site = data.siteName ?? "Memory Box";
  const copy = copies[kind](site, data);
  const button = copy.action !== undefined && data.link !== undefined ? { label: copy.action, link: data.link } : undefined;
  return {
    subject: copy.subject,
    text: renderText(copy, data.code, button, site),
    html: renderHtml(copy, data.code, button, site),
  };
}

export interface NoticeData extends NoticeMail {
  siteName?: string;
}

const ifNotYou = (site: string) =>
  `If this wasn't you, someone else may be using your account: tell whoever runs this ${site} straight away, so they can end every session and set a new password.`;

/**
 * "The Google account jo@gmail.com". The provider's address only when it looks like one: whatever a
 * provider puts there must not read as a link in a mail that promises none.
 */
function providerAccountOf(provider: string | undefined, account: string | undefined): string {
  if (provider === undefined) return "An account at a sign-in provider";
  const shown = account !== undefined && /^[^\s@/:<>]+@[^\s@/:<>]+$/.test(account) ? ` ${account}` : "";
  return `The ${provider} account${shown}`;
}

/**
 * "An Ethereum wallet" / "The Ethereum wallet 0x12AB…cdEF": the address shortened as wallets show
 * it, enough to tell one's own wallets apart; left out unless it is letters and digits only.
 */
function walletOf(wallet: NoticeData["wallet"], withAddress: boolean): string {
  const chain = wallet?.chain ?? "crypto";
  const address = wallet?.address ?? "";
  if (!withAddress || !/^[A-Za-z0-9]{12,}$/.test(address)) return `${/^[AEIOU]/i.test(chain) ? "An" : "A"} ${chain} wallet`;
  const head = address.startsWith("0x") ? 6 : 4;
  return `The ${chain} wallet ${address.slice(0, head)}…${address.slice(-4)}`;
}

const notices: Record<NoticeKind, (site: string, data: NoticeData, when: string) => Copy> = {
  password_changed: (site, { email }, when) => ({
    subject: `Your ${site} password was changed`,
    intro: ["Hello,", `The password of the ${site} account for ${email} was changed on ${when}.`],
    outro: ["If you made this change, there is nothing to do.", ifNotYou(site)],
  }),
  factor_added: (site, { email, factor = "authenticator app" }, when) => ({
    subject: `Two-step verification was turned on for your ${site} account`,
    intro: [
      "Hello,",
      factor === "security key"
        ? `A security key was added to the ${site} account for ${email} on ${when}. From now on, signing in can also ask for that key.`
        : `An authenticator app was added to the ${site} account for ${email} on ${when}. From now on, signing in also asks for a code from that app.`,
    ],
    outro: ["If you made this change, there is nothing to do.", ifNotYou(site)],
  }),
  factors_removed: (site, { email }, when) => ({
    subject: `Two-step verification was turned off for your ${site} account`,
    intro: [
      "Hello,",
      `The second step (authenticator app or security key) of the ${site} account for ${email} was removed on ${when}. Signing in now needs only the password; you can add one again in Settings.`,
    ],
    outro: ["If you or an owner of this Memory Box made this change, there is nothing to do.", ifNotYou(site)],
  }),
  factor_locked: (site, { email }, when) => ({
    subject: `Wrong codes were typed for your ${site} account`,
    intro: [
      "Hello,",
      `Too many wrong codes from your authenticator app were typed while signing in to the ${site} account for ${email}, the last on ${when}. Codes from that app are refused for 15 minutes.`,
    ],
    outro: [
      "If you mistyped them, wait and try again, or sign in with one of your recovery codes; an owner of this Memory Box can also reset your two-step verification.",
      "If it was not you, someone knows your password: change it once you are signed in.",
    ],
  }),
  recovery_code_used: (site, { email, recoveryCodesLeft = 0 }, when) => ({
    subject: `A recovery code was used for your ${site} account`,
    intro: [
      "Hello,",
      `A recovery code was used instead of the second step to sign in to the ${site} account for ${email} on ${when}. That code cannot be used again.`,
      recoveryCodesLeft === 0
        ? "You have no recovery codes left: make new ones in Settings, under Two-step verification."
        : recoveryCodesLeft === 1
          ? "You have 1 recovery code left. You can make new ones in Settings, under Two-step verification."
          : `You have ${recoveryCodesLeft} recovery codes left. You can make new ones in Settings, under Two-step verification.`,
    ],
    outro: [
      "If you lost your phone or security key, you can remove it in Settings and add a new one.",
      "If this wasn't you, someone has your password and a recovery code: tell whoever runs this Memory Box straight away, so they can end every session and reset your two-step verification.",
    ],
  }),
  recovery_codes_locked: (site, { email }, when) => ({
    subject: `Wrong recovery codes were typed for your ${site} account`,
    intro: [
      "Hello,",
      `Too many wrong recovery codes were typed while signing in to the ${site} account for ${email}, the last on ${when}. Recovery codes are refused for 15 minutes.`,
    ],
    outro: [
      "If you mistyped them, wait and try again; an owner of this Memory Box can also reset your two-step verification.",
      "If it was not you, someone knows your password: change it once you are signed in.",
    ],
  }),
  passkey_added: (site, { email }, when) => ({
    subject: `A passkey was added to your ${site} account`,
    intro: [
      "Hello,",
      `A passkey was added to the ${site} account for ${email} on ${when}. The device or password manager that keeps it can now sign in to this account without the password.`,
    ],
    outro: ["If you made this change, there is nothing to do.", ifNotYou(site)],
  }),
  passkey_removed: (site, { email }, when) => ({
    subject: `A passkey was removed from your ${site} account`,
    intro: [
      "Hello,",
      `A passkey was removed from the ${site} account for ${email} on ${when}. It no longer signs in to this account.`,
    ],
    outro: ["If you or an owner of this Memory Box made this change, there is nothing to do.", ifNotYou(site)],
  }),
  identity_linked: (site, { email, provider, providerAccount }, when) => ({
    subject: `${provider ?? "A sign-in provider"} was connected to your ${site} account`,
    intro: [
      "Hello,",
      `${providerAccountOf(provider, providerAccount)} was connected to the ${site} account for ${email} on ${when}. It can now sign in to this account.`,
    ],
    outro: [
      "If you connected it yourself, or signed in with it for the first time, there is nothing to do; you can disconnect it in Settings, under Connected accounts.",
      ifNotYou(site),
    ],
  }),
  identity_unlinked: (site, { email, provider, providerAccount }, when) => ({
    subject: `${provider ?? "A sign-in provider"} was disconnected from your ${site} account`,
    intro: [
      "Hello,",
      `${providerAccountOf(provider, providerAccount)} was disconnected from the ${site} account for ${email} on ${when}. It no longer signs in to this account.`,
    ],
    outro: ["If you made this change, there is nothing to do.", ifNotYou(site)],
  }),
  wallet_linked: (site, { email, wallet }, when) => ({
    subject: `${walletOf(wallet, false)} was connected to your ${site} account`,
    intro: [
      "Hello,",
      `${walletOf(wallet, true)} was connected to the ${site} account for ${email} on ${when}. It can now sign in to this account.`,
    ],
    outro: [
      "If you connected it yourself, there is nothing to do; you can disconnect it in Settings, under Connected accounts.",
      ifNotYou(site),
    ],
  }),
  wallet_unlinked: (site, { email, wallet }, when) => ({
    subject: `${walletOf(wallet, false)} was disconnected from your ${site} account`,
    intro: [
      "Hello,",
      `${walletOf(wallet, true)} was disconnected from the ${site} account for ${email} on ${when}. It no longer signs in to this account.`,
    ],
    outro: ["If you made this change, there is nothing to do.", ifNotYou(site)],
  }),
  email_changed: (site, { email, newEmail }, when) => ({
    subject: `Your ${site} email address was changed`,
    intro: [
      "Hello,",
      `The ${site} account that used ${email} was moved to ${newEmail ?? "another address"} on ${when}. Mail about the account now goes there, and ${email} no longer signs in to it.`,
    ],
    outro: ["If you made this change, there is nothing to do.", ifNotYou(site)],
  }),
};

/**
 * Renders a notice: what changed and when, with no link and no code, so that nothing in it can
 * grant access to whoever reads it.
 */
export function renderNotice(kind: NoticeKind, data: NoticeData): RenderedEmail {
  const site = data.siteName ?? "Memory Box";
  const copy = notices[kind](site, data, formatWhen(data.changedAt));
  return {
    subject: copy.subject,
    text: renderText(copy, undefined, undefined, site),
    html: renderHtml(copy, undefined, undefined, site),
  };
}

export interface InvitationData {
  /** The invited address. */
  email: string;
  /** Opens the sign-up form with the address filled in. */
  link: string;
  /** The inviting member's display name. */
  inviterName: string;
  siteName?: string;
}

/**
 * An owner's invitation: who invites, and the link to the sign-up form. It carries no code and
 * grants nothing by itself; the sign-up still proves the mailbox.
 */
export function renderInvitation({ email, link, inviterName, siteName }: InvitationData): RenderedEmail {
  const site = siteName ?? "Memory Box";
  const copy: Copy = {
    subject: `${inviterName} invited you to ${site}`,
    intro: [
      "Hello,",
      `${inviterName} invited you to join their ${site}, a private place to keep shared memories: stories, dates and photos that only the people invited can see.`,
      `To accept, sign up with this address (${email}) and choose a password.`,
    ],
    outro: ["If you weren't expecting this invitation, you can safely ignore this email."],
  };
  const button = { label: "Accept the invitation", link };
  return {
    subject: copy.subject,
    text: renderText(copy, undefined, button, site),
    html: renderHtml(copy, undefined, button, site),
  };
}

/** "24 November 2026 at 09:05 UTC": the server cannot know the reader's time zone. */
function formatWhen(date: Date): string {
  const day = date.toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  const time = date.toLocaleTimeString("en-GB", { hour: "2-digit", minute: "2-digit", hour12: false, timeZone: "UTC" });
  return `${day} at ${time} UTC`;
}

interface Button {
  label: string;
  link: string;
}

const codeLead = (button: Button | undefined) => (button === undefined ? "Your code:" : "Or enter this code instead:");
const footer = (site: string) => `${site}, your private memory journal.`;

function renderText(copy: Copy, code: string | undefined, button: Button | undefined, site: string): string {
  const action = button === undefined ? [] : [`${button.label}:\n${button.link}`];
  const codeLine = code === undefined ? [] : [`${codeLead(button)} ${code}`];
  return [...copy.intro, ...action, ...codeLine, ...copy.outro, `-- \n${footer(site)}`].join("\n\n") + "\n";
}

// Mail clients drop <style> blocks and block remote content, so everything is inline and text-only.
const styles = {
  body: "margin:0;padding:24px;background:#faf6f2;font-family:Georgia,'Times New Roman',serif;color:#3d3430;",
  card: "max-width:480px;margin:0 auto;padding:32px;background:#ffffff;border-radius:12px;",
  paragraph: "margin:0 0 16px;font-size:16px;line-height:1.5;",
  button:
    "display:inline-block;padding:12px 24px;background:#b5485d;color:#ffffff;text-decoration:none;border-radius:8px;font-family:Arial,Helvetica,sans-serif;font-size:16px;font-weight:bold;",
  linkLine: "margin:0 0 16px;font-size:13px;line-height:1.4;word-break:break-all;color:#7a6d66;",
  code: "font-family:'Courier New',Courier,monospace;font-size:22px;font-weight:bold;letter-spacing:4px;",
  footer: "margin:24px 0 0;font-size:13px;color:#9a8c85;",
};

function renderHtml(copy: Copy, code: string | undefined, button: Button | undefined, site: string): string {
  const paragraph = (content: string, style = styles.paragraph) => `<p style="${style}">${content}</p>`;
  const action = (label: string, href: string) => [
    paragraph(`<a href="${href}" style="${styles.button}">${label}</a>`, "margin:24px 0;"),
    paragraph(`Or open this link: <a href="${href}" style="color:#7a6d66;">${href}</a>`, styles.linkLine),
  ];
  const content = [
    ...copy.intro.map((text) => paragraph(escapeHtml(text))),
    ...(button === undefined ? [] : action(escapeHtml(button.label), escapeHtml(button.link))),
    ...(code === undefined
      ? []
      : [paragraph(`${escapeHtml(codeLead(button))} <span style="${styles.code}">${escapeHtml(code)}</span>`)]),
    ...copy.outro.map((text) => paragraph(escapeHtml(text))),
    paragraph(escapeHtml(footer(site)), styles.footer),
  ];
  return [
    "<!doctype html>",
    '<html lang="en">',
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(copy.subject)}</title></head>`,
    `<body style="${styles.body}">`,
    `<div style="${styles.card}">`,
    ...content,
    "</div>",
    "</body>",
    "</html>",
  ].join("\n");
}

const htmlEntities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for HTML content and double- or single-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => htmlEntities[char] ?? char);
}
