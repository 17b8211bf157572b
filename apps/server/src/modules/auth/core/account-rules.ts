import { AccountLimits, AccountLocale } from "@memory-box/contract";
import { randomUUID } from "node:crypto";
import type { UserRow } from "../../../db/schema";
import { parseEmail } from "../../../lib/email";
import { offeredLanguages } from "../../../lib/languages";
import { AppError } from "../../../errors";

/** Rules about accounts shared by the member-facing flows and the admin API. */

/** Lower-cased and trimmed; anything that is not an address (by the invitation list's rule) is refused. */
export function validEmail(raw: string): string {
  const email = parseEmail(raw);
  if (email === null) throw new AppError("validation_failed", { message: "Unable to validate email address: invalid format" });
  return email;
}

/**
 * A member's own change of `full_name` (their display name): text of 1 to 80 characters once
 * trimmed, or null to go back to the address's name. Anything else would show as a blank or
 * endless name on every card, so it is refused with 400 `validation_failed` naming the rule.
 */
export function assertDisplayNameChange(data: Record<string, unknown>): void {
  if (!("full_name" in data) || data.full_name === null) return;
  const name = data.full_name;
  const length = typeof name === "string" ? name.trim().length : 0;
  if (length === 0 || length > AccountLimits.displayNameMaxLength)
    throw new AppError("validation_failed", {
      message: `The display name must be 1 to ${AccountLimits.displayNameMaxLength} characters, and not only spaces.`,
    });
}

/**
 * A change of `locale`, the language the member chose (ADR 0049): one of the languages offered,
 * or null to follow the browser again. Anything else is refused with 400 `validation_failed`
 * naming the languages there are, and nothing of the request is written.
 */
export function assertLocaleChange(data: Record<string, unknown>): void {
  if (!("locale" in data) || data.locale === null) return;
  const offered = offeredLanguages() as readonly [string, ...string[]];
  if (!AccountLocale(offered).safeParse(data.locale).success)
    throw new AppError("validation_failed", {
      message: `The language must be one of ${offered.join(", ")}, or null to follow the browser.`,
      details: [{ path: "data.locale", message: `must be one of ${offered.join(", ")}, or null` }],
    });
}

/** The chosen language kept in the metadata, or null. */
export function localeOf(metadata: Record<string, unknown>): string | null {
  return typeof metadata.locale === "string" && offeredLanguages().includes(metadata.locale) ? metadata.locale : null;
}

/** `full_name` from the metadata, else the part of the address before the @. */
export function displayNameFor(email: string, metadata: Record<string, unknown>): string {
  const fullName = typeof metadata.full_name === "string" ? metadata.full_name.trim() : "";
  return fullName || email.split("@")[0] || email;
}

/** Merges metadata the way Supabase Auth does: a `null` value removes that key. */
export function mergeMetadata(current: Record<string, unknown>, changes: Record<string, unknown>): Record<string, unknown> {
  const merged = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

/**
 * An anonymous account (ADR 0072): no address, no password, no identity. Its `email` column holds
 * a placeholder under `.invalid` (RFC 2606: no mailbox has it), unique by the account's id; the
 * wire shows an empty address.
 */
export function newAnonymousUser(data: Record<string, unknown>, now: string): UserRow {
  const user = newUser("", null, data, now);
  return { ...user, email: anonymousPlaceholder(user.id), app_metadata: "{}", anonymous_since: now };
}

function anonymousPlaceholder(id: string): string {
  return `${id}@anonymous.invalid`;
}

/** The address an account shows: none for an anonymous one. */
export function shownEmail(user: Pick<UserRow, "email" | "anonymous_since">): string {
  return user.anonymous_since === null ? user.email : "";
}

export function newUser(email: string, passwordHash: string | null, data: Record<string, unknown>, now: string): UserRow {
  return {
    id: randomUUID(),
    aud: "authenticated",
    role: "authenticated",
    email,
    encrypted_password: passwordHash,
    email_confirmed_at: null,
    invited_at: null,
    confirmation_sent_at: null,
    recovery_sent_at: null,
    email_change: null,
    email_change_sent_at: null,
    reauthentication_sent_at: null,
    last_sign_in_at: null,
    banned_until: null,
    app_metadata: JSON.stringify({ provider: "email", providers: ["email"] }),
    user_metadata: JSON.stringify(data),
    created_at: now,
    updated_at: now,
    failed_verifications: 0,
    failed_verifications_since: null,
    mfa_factors: "[]",
    linked_identities: "[]",
    locale: localeOf(data),
    anonymous_since: null,
    guide_dismissed_at: null,
  };
}
