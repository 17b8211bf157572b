import { defaultLocale } from "@memory-box/messages";
import { serverMessages, type ServerMessages } from "@memory-box/messages/server";
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
  /** Lists of linked items after the intro (the digest's memories). */
  sections?: Section[];
  /** A link under the footer (the digest's unsubscribe page). */
  footerLink?: Button;
}

interface Section {
  heading: string;
  items: { label: string; detail?: string; link: string }[];
  /** A line after the items ("…and 4 more"). */
  more?: string;
}

/** The texts of the catalogue's mail.json in one language; English unless said otherwise. */
type Words = ServerMessages;
const english = (): Words => serverMessages(defaultLocale);

const copies: Record<EmailKind, (t: Words, site: string, data: EmailData) => Copy> = {
  confirmation: (t, site, { email }) => ({
    subject: t.format("mail.confirmation.subject", { site }),
    intro: [t.format("mail.hello"), t.format("mail.confirmation.intro", { site, email })],
    action: t.format("mail.confirmation.action"),
    outro: [t.format("mail.confirmation.outro")],
  }),
  magic_link: (t, site) => ({
    subject: t.format("mail.magic_link.subject", { site }),
    intro: [t.format("mail.hello"), t.format("mail.magic_link.intro", { site })],
    action: t.format("mail.magic_link.action", { site }),
    outro: [t.format("mail.magic_link.outro")],
  }),
  recovery: (t, site, { email }) => ({
    subject: t.format("mail.recovery.subject", { site }),
    intro: [t.format("mail.hello"), t.format("mail.recovery.intro", { site, email })],
    action: t.format("mail.recovery.action"),
    outro: [t.format("mail.recovery.outro")],
  }),
  invite: (t, site) => ({
    subject: t.format("mail.invite.subject", { site }),
    intro: [t.format("mail.hello"), t.format("mail.invite.intro", { site })],
    action: t.format("mail.invite.action"),
    outro: [t.format("mail.invite.outro")],
  }),
  email_change: (t, site, { email, newEmail }) => ({
    subject: t.format("mail.email_change.subject", { site }),
    intro: [t.format("mail.hello"), t.format("mail.email_change.intro", { site, email: newEmail ?? email })],
    action: t.format("mail.email_change.action"),
    outro: [t.format("mail.email_change.outro")],
  }),
  reauthentication: (t, site) => ({
    subject: t.format("mail.reauthentication.subject", { site }),
    intro: [t.format("mail.hello"), t.format("mail.reauthentication.intro", { site })],
    outro: [t.format("mail.reauthentication.outro")],
  }),
};

/**
 * Renders one transactional mail as a subject and matching plain-text and HTML bodies, in the
 * language of `words` (English unless given).
 */
export function renderEmail(kind: EmailKind, data: EmailData, words: Words = english()): RenderedEmail {
  const site = data.siteName ?? "Memory Box";
  const copy = copies[kind](words, site, data);
  const button = copy.action !== undefined && data.link !== undefined ? { label: copy.action, link: data.link } : undefined;
  return {
    subject: copy.subject,
    text: renderText(words, copy, data.code, button, site),
    html: renderHtml(words, copy, data.code, button, site),
  };
}

export interface NoticeData extends NoticeMail {
  siteName?: string;
}

/**
 * "The Google account jo@gmail.com". The provider's address only when it looks like one: whatever a
 * provider puts there must not read as a link in a mail that promises none.
 */
function providerAccountOf(t: Words, provider: string | undefined, account: string | undefined): string {
  if (provider === undefined) return t.format("mail.provider.unnamedAccount");
  return account !== undefined && /^[^\s@/:<>]+@[^\s@/:<>]+$/.test(account)
    ? t.format("mail.provider.accountWithAddress", { provider, account })
    : t.format("mail.provider.account", { provider });
}

/**
 * "An Ethereum wallet" / "The Ethereum wallet 0x12AB…cdEF": the address shortened as wallets show
 * it, enough to tell one's own wallets apart; left out unless it is letters and digits only.
 */
function walletOf(t: Words, wallet: NoticeData["wallet"], withAddress: boolean): string {
  const chain = wallet?.chain ?? t.format("mail.wallet.someChain");
  const address = wallet?.address ?? "";
  if (!withAddress || !/^[A-Za-z0-9]{12,}$/.test(address))
    return t.format("mail.wallet.some", { chain, vowel: /^[AEIOU]/i.test(chain) ? "yes" : "no" });
  const head = address.startsWith("0x") ? 6 : 4;
  return t.format("mail.wallet.withAddress", { chain, address: `${address.slice(0, head)}…${address.slice(-4)}` });
}

/** The outro of most notices: nothing to do if it was you, and what to do if it was not. */
const usualOutro = (t: Words, site: string) => [t.format("mail.notice.nothingToDo"), t.format("mail.notice.ifNotYou", { site })];

type NoticeValues = { site: string; email: string; when: string };

const notices: Record<NoticeKind, (t: Words, values: NoticeValues, data: NoticeData) => Copy> = {
  password_changed: (t, values) => ({
    subject: t.format("mail.password_changed.subject", values),
    intro: [t.format("mail.hello"), t.format("mail.password_changed.intro", values)],
    outro: usualOutro(t, values.site),
  }),
  factor_added: (t, values, { factor = "authenticator app" }) => ({
    subject: t.format("mail.factor_added.subject", values),
    intro: [
      t.format("mail.hello"),
      t.format("mail.factor_added.intro", { ...values, factor: factor === "security key" ? "securityKey" : "app" }),
    ],
    outro: usualOutro(t, values.site),
  }),
  factors_removed: (t, values) => ({
    subject: t.format("mail.factors_removed.subject", values),
    intro: [t.format("mail.hello"), t.format("mail.factors_removed.intro", values)],
    outro: [t.format("mail.notice.nothingToDoOrOwner"), t.format("mail.notice.ifNotYou", values)],
  }),
  factor_locked: (t, values) => ({
    subject: t.format("mail.factor_locked.subject", values),
    intro: [t.format("mail.hello"), t.format("mail.factor_locked.intro", values)],
    outro: [t.format("mail.factor_locked.outro"), t.format("mail.notice.mistypedWrongPassword")],
  }),
  recovery_code_used: (t, values, { recoveryCodesLeft = 0 }) => ({
    subject: t.format("mail.recovery_code_used.subject", values),
    intro: [
      t.format("mail.hello"),
      t.format("mail.recovery_code_used.intro", values),
      t.format("mail.recovery_code_used.left", { count: recoveryCodesLeft }),
    ],
    outro: [t.format("mail.recovery_code_used.lostDevice"), t.format("mail.recovery_code_used.ifNotYou")],
  }),
  recovery_codes_locked: (t, values) => ({
    subject: t.format("mail.recovery_codes_locked.subject", values),
    intro: [t.format("mail.hello"), t.format("mail.recovery_codes_locked.intro", values)],
    outro: [t.format("mail.recovery_codes_locked.outro"), t.format("mail.notice.mistypedWrongPassword")],
  }),
  passkey_added: (t, values) => ({
    subject: t.format("mail.passkey_added.subject", values),
    intro: [t.format("mail.hello"), t.format("mail.passkey_added.intro", values)],
    outro: usualOutro(t, values.site),
  }),
  passkey_removed: (t, values) => ({
    subject: t.format("mail.passkey_removed.subject", values),
    intro: [t.format("mail.hello"), t.format("mail.passkey_removed.intro", values)],
    outro: [t.format("mail.notice.nothingToDoOrOwner"), t.format("mail.notice.ifNotYou", values)],
  }),
  identity_linked: (t, values, { provider, providerAccount }) => ({
    subject: t.format("mail.identity_linked.subject", { ...values, provider: provider ?? t.format("mail.provider.some") }),
    intro: [
      t.format("mail.hello"),
      t.format("mail.identity_linked.intro", { ...values, account: providerAccountOf(t, provider, providerAccount) }),
    ],
    outro: [t.format("mail.identity_linked.outro"), t.format("mail.notice.ifNotYou", values)],
  }),
  identity_unlinked: (t, values, { provider, providerAccount }) => ({
    subject: t.format("mail.identity_unlinked.subject", { ...values, provider: provider ?? t.format("mail.provider.some") }),
    intro: [
      t.format("mail.hello"),
      t.format("mail.identity_unlinked.intro", { ...values, account: providerAccountOf(t, provider, providerAccount) }),
    ],
    outro: usualOutro(t, values.site),
  }),
  wallet_linked: (t, values, { wallet }) => ({
    subject: t.format("mail.wallet_linked.subject", { ...values, wallet: walletOf(t, wallet, false) }),
    intro: [t.format("mail.hello"), t.format("mail.wallet_linked.intro", { ...values, wallet: walletOf(t, wallet, true) })],
    outro: [t.format("mail.wallet_linked.outro"), t.format("mail.notice.ifNotYou", values)],
  }),
  wallet_unlinked: (t, values, { wallet }) => ({
    subject: t.format("mail.wallet_unlinked.subject", { ...values, wallet: walletOf(t, wallet, false) }),
    intro: [t.format("mail.hello"), t.format("mail.wallet_unlinked.intro", { ...values, wallet: walletOf(t, wallet, true) })],
    outro: usualOutro(t, values.site),
  }),
  email_changed: (t, values, { newEmail }) => ({
    subject: t.format("mail.email_changed.subject", values),
    intro: [
      t.format("mail.hello"),
      t.format("mail.email_changed.intro", { ...values, newEmail: newEmail ?? t.format("mail.email_changed.anotherAddress") }),
    ],
    outro: usualOutro(t, values.site),
  }),
};

/**
 * Renders a notice: what changed and when, with no link and no code, so that nothing in it can
 * grant access to whoever reads it. In the language of `words` (English unless given).
 */
export function renderNotice(kind: NoticeKind, data: NoticeData, words: Words = english()): RenderedEmail {
  const site = data.siteName ?? "Memory Box";
  const copy = notices[kind](words, { site, email: data.email, when: formatWhen(words, data.changedAt) }, data);
  return {
    subject: copy.subject,
    text: renderText(words, copy, undefined, undefined, site),
    html: renderHtml(words, copy, undefined, undefined, site),
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
 * grants nothing by itself; the sign-up still proves the mailbox. In the language of `words`.
 */
export function renderInvitation(
  { email, link, inviterName, siteName }: InvitationData,
  words: Words = english(),
): RenderedEmail {
  const t = words;
  const site = siteName ?? "Memory Box";
  const inviter = inviterName;
  const copy: Copy = {
    subject: t.format("mail.invitation.subject", { inviter, site }),
    intro: [
      t.format("mail.hello"),
      t.format("mail.invitation.intro", { inviter, site }),
      t.format("mail.invitation.address", { email }),
    ],
    outro: [t.format("mail.invitation.outro")],
  };
  const button = { label: t.format("mail.invitation.action"), link };
  return {
    subject: copy.subject,
    text: renderText(words, copy, undefined, button, site),
    html: renderHtml(words, copy, undefined, button, site),
  };
}

export interface DigestData {
  schedule: "daily" | "weekly";
  /** Each partner who added something, with their memories (titles and dates only: never photos). */
  authors: {
    name: string;
    count: number;
    memories: { title: string; /** "YYYY-MM-DD" */ date: string | null; link: string }[];
  }[];
  /** The web app, which the button opens. */
  siteLink: string;
  /** The page that turns the digest off after the member confirms. */
  unsubscribeLink: string;
  siteName?: string;
}

/**
 * The e-mail digest (ADR 0060): "Ben added 3 memories this week", each memory's title and date
 * linking to its page, and a footer link to unsubscribe. Titles are the members' own words and are
 * escaped like any text; no image and no memory text beyond the title ever goes into the mail.
 */
export function renderDigest(data: DigestData, words: Words = english()): RenderedEmail {
  const t = words;
  const site = data.siteName ?? "Memory Box";
  const added = (name: string, count: number) => t.format(`mail.digest.added.${data.schedule}`, { name, count });
  const total = data.authors.reduce((sum, author) => sum + author.count, 0);
  const [only] = data.authors;
  const sections = data.authors.map((author): Section => ({
    heading: added(author.name, author.count),
    items: author.memories.map((memory) => ({
      label: memory.title,
      ...(memory.date === null ? {} : { detail: formatDay(t, memory.date) }),
      link: memory.link,
    })),
    ...(author.count > author.memories.length
      ? { more: t.format("mail.digest.more", { count: author.count - author.memories.length }) }
      : {}),
  }));
  const copy: Copy = {
    subject:
      data.authors.length === 1 && only
        ? added(only.name, only.count)
        : t.format(`mail.digest.subjectMany.${data.schedule}`, { count: total, site }),
    intro: [t.format("mail.hello"), t.format("mail.digest.intro", { site })],
    sections,
    action: t.format("mail.digest.action", { site }),
    outro: [t.format(`mail.digest.why.${data.schedule}`, { site })],
    footerLink: { label: t.format("mail.digest.unsubscribe"), link: data.unsubscribeLink },
  };
  const button = { label: copy.action!, link: data.siteLink };
  return {
    subject: copy.subject,
    text: renderText(words, copy, undefined, button, site),
    html: renderHtml(words, copy, undefined, button, site),
  };
}

/** "3 November 2026" for a memory's date ("YYYY-MM-DD", a calendar day: read as UTC, shown as UTC). */
function formatDay(t: Words, date: string): string {
  return t.formatDate(new Date(`${date}T00:00:00Z`), { day: "numeric", month: "long", year: "numeric" });
}

/**
 * "24 November 2026 at 09:05 UTC", "24. November 2026 um 09:05 UTC": the day and time by `Intl`
 * for the mail's language, in UTC, since the server cannot know the reader's time zone.
 */
function formatWhen(t: Words, date: Date): string {
  const day = t.formatDate(date, { day: "numeric", month: "long", year: "numeric" });
  const time = t.formatDate(date, { hour: "2-digit", minute: "2-digit", hour12: false });
  return t.format("mail.when", { day, time });
}

interface Button {
  label: string;
  link: string;
}

const codeLead = (t: Words, button: Button | undefined) =>
  button === undefined ? t.format("mail.code.alone") : t.format("mail.code.instead");
const footer = (t: Words, site: string) => t.format("mail.footer", { site });

function renderText(t: Words, copy: Copy, code: string | undefined, button: Button | undefined, site: string): string {
  const action = button === undefined ? [] : [`${button.label}:\n${button.link}`];
  const codeLine = code === undefined ? [] : [`${codeLead(t, button)} ${code}`];
  const sections = (copy.sections ?? []).map((section) =>
    [
      section.heading,
      ...section.items.map((item) => `- ${item.label}${item.detail === undefined ? "" : ` (${item.detail})`}\n  ${item.link}`),
      ...(section.more === undefined ? [] : [section.more]),
    ].join("\n"),
  );
  const footerLink = copy.footerLink === undefined ? "" : `\n${copy.footerLink.label}: ${copy.footerLink.link}`;
  return (
    [...copy.intro, ...sections, ...action, ...codeLine, ...copy.outro, `-- \n${footer(t, site)}${footerLink}`].join("\n\n") +
    "\n"
  );
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
  heading: "margin:24px 0 8px;font-size:16px;line-height:1.5;font-weight:bold;",
  list: "margin:0 0 16px;padding:0 0 0 20px;font-size:16px;line-height:1.5;",
  item: "margin:0 0 8px;",
  itemLink: "color:#b5485d;",
  detail: "color:#7a6d66;font-size:14px;",
  footerLink: "margin:8px 0 0;font-size:13px;color:#9a8c85;",
};

function renderHtml(t: Words, copy: Copy, code: string | undefined, button: Button | undefined, site: string): string {
  const paragraph = (content: string, style = styles.paragraph) => `<p style="${style}">${content}</p>`;
  const action = (label: string, href: string) => [
    paragraph(`<a href="${href}" style="${styles.button}">${label}</a>`, "margin:24px 0;"),
    paragraph(`${escapeHtml(t.format("mail.openLink"))} <a href="${href}" style="color:#7a6d66;">${href}</a>`, styles.linkLine),
  ];
  const section = ({ heading, items, more }: Section) => [
    paragraph(escapeHtml(heading), styles.heading),
    `<ul style="${styles.list}">`,
    ...items.map(
      ({ label, detail, link }) =>
        `<li style="${styles.item}"><a href="${escapeHtml(link)}" style="${styles.itemLink}">${escapeHtml(label)}</a>` +
        `${detail === undefined ? "" : ` <span style="${styles.detail}">· ${escapeHtml(detail)}</span>`}</li>`,
    ),
    "</ul>",
    ...(more === undefined ? [] : [paragraph(escapeHtml(more))]),
  ];
  const content = [
    ...copy.intro.map((text) => paragraph(escapeHtml(text))),
    ...(copy.sections ?? []).flatMap(section),
    ...(button === undefined ? [] : action(escapeHtml(button.label), escapeHtml(button.link))),
    ...(code === undefined
      ? []
      : [paragraph(`${escapeHtml(codeLead(t, button))} <span style="${styles.code}">${escapeHtml(code)}</span>`)]),
    ...copy.outro.map((text) => paragraph(escapeHtml(text))),
    paragraph(escapeHtml(footer(t, site)), styles.footer),
    ...(copy.footerLink === undefined
      ? []
      : [
          paragraph(
            `<a href="${escapeHtml(copy.footerLink.link)}" style="color:#9a8c85;">${escapeHtml(copy.footerLink.label)}</a>`,
            styles.footerLink,
          ),
        ]),
  ];
  return [
    "<!doctype html>",
    // English keeps the bare `lang` it always had; a language written right to left says so.
    `<html lang="${t.locale}"${t.direction === "rtl" ? ' dir="rtl"' : ""}>`,
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
