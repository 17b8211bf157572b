import fs from "node:fs";
import path from "node:path";
import type { E2eServer } from "./servers";

/**
 * The members the journeys sign in as, prepared once per server by the global setup
 * (e2e/members.setup.ts) through the admin API, with their sessions stored as Playwright storage
 * states. One per journey that changes something about its member (name, devices, factors, sign-out),
 * so no journey ends another's session. Journeys about signing up or in do that through the UI instead.
 */
export interface MemberSpec {
  /** What the address starts with, and so the display name until one is chosen. */
  label: string;
  owner?: boolean;
  /** Given the journeys' password, for journeys that type it later; the others have none. */
  password?: boolean;
  /** A display name of its own, instead of the address's first part. */
  name?: string;
}

export const members = {
  // The owner who invites the addresses of the sign-up journeys (e2e/support.ts `invite`); first, so
  // that a fresh server makes it its owner.
  keeper: { label: "keeper", owner: true },
  ann: { label: "ann" },
  ben: { label: "ben" },
  devices: { label: "devices", password: true },
  totp: { label: "totp", password: true },
  appearance: { label: "appearance" },
  "comments-ann": { label: "comments-ann" },
  "comments-ben": { label: "comments-ben" },
  export: { label: "export" },
  "first-screen-wide": { label: "first-screen" },
  "first-screen-narrow": { label: "first-screen" },
  "first-screen-on-this-day": { label: "first-screen-on-this-day" },
  "first-screen-expired": { label: "first-screen-expired" },
  home: { label: "home" },
  search: { label: "search" },
  "import-owner": { label: "import-owner", owner: true },
  "import-member": { label: "import-member" },
  owner: { label: "owner", owner: true },
  plain: { label: "plain" },
  journal: { label: "journal" },
  shapes: { label: "shapes" },
  uploads: { label: "uploads" },
  "form-alice": { label: "alice" },
  "form-bob": { label: "bob" },
  "form-ava": { label: "ava" },
  "form-ben": { label: "ben" },
  slow: { label: "slow" },
  neighbours: { label: "neighbours" },
  queue: { label: "queue" },
  share: { label: "share", password: true },
  "share-elsewhere": { label: "share-elsewhere" },
  linker: { label: "linker" },
  "on-this-day": { label: "on-this-day" },
  passkey: { label: "passkey" },
  key: { label: "key", password: true },
  pwa: { label: "pwa" },
  "screens-ann": { label: "screens-ann", owner: true, name: "Ann" },
  "screens-ben": { label: "screens-ben", name: "Ben" },
  timeline: { label: "timeline" },
  wallet: { label: "wallet" },
  videos: { label: "videos" },
  places: { label: "places" },
  book: { label: "book", name: "Bea" },
  "notify-ann": { label: "notify-ann", name: "Ann" },
  "notify-ben": { label: "notify-ben", name: "Ben" },
  "capture-cara": { label: "capture-cara", name: "Cara" },
  "photos-lead": { label: "photos-lead" },
  "email-owner": { label: "email-owner", owner: true },
  "email-member": { label: "email-member" },
  "box-owner": { label: "box-owner", owner: true, name: "Ann" },
  "box-member": { label: "box-member", name: "Ben" },
  "apps-owner": { label: "apps-owner", owner: true, name: "Ann" },
  frames: { label: "frames", name: "Fran" },
} satisfies Record<string, MemberSpec>;

export type MemberKey = keyof typeof members;

/** What the global setup wrote for one member on one server. */
export interface PreparedMember {
  email: string;
  /** A Playwright storage state: the auth-js session in localStorage and the photo access cookie. */
  storageState: string;
}

export function preparedMembersFile(server: E2eServer): string {
  return path.join(server.sessionsDir, "members.json");
}

export function preparedMember(server: E2eServer, key: MemberKey): PreparedMember {
  const prepared = JSON.parse(fs.readFileSync(preparedMembersFile(server), "utf8")) as Record<string, PreparedMember>;
  const member = prepared[key];
  if (!member) throw new Error(`${key} was not prepared on ${server.url} (e2e/members.setup.ts)`);
  return member;
}
