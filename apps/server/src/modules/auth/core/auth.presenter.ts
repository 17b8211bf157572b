import type { UserRow } from "../../../db/schema";
import { shownEmail } from "./account-rules";

/**
 * The user object of the Supabase Auth wire format. Unset timestamps are omitted, e-mail and
 * phone are strings (never null). Identities: the `email` one (see `hasEmailIdentity`), then the
 * provider identities from the account's summary (ADR 0034).
 */
export function presentUser(user: UserRow): Record<string, unknown> {
  const confirmedAt = user.email_confirmed_at ?? undefined;
  return withoutUndefined({
    id: user.id,
    aud: user.aud,
    role: user.role,
    email: shownEmail(user),
    email_confirmed_at: confirmedAt,
    phone: "",
    confirmed_at: confirmedAt,
    confirmation_sent_at: user.confirmation_sent_at ?? undefined,
    recovery_sent_at: user.recovery_sent_at ?? undefined,
    email_change_sent_at: user.email_change_sent_at ?? undefined,
    new_email: user.email_change ?? undefined,
    reauthentication_sent_at: user.reauthentication_sent_at ?? undefined,
    invited_at: user.invited_at ?? undefined,
    last_sign_in_at: user.last_sign_in_at ?? undefined,
    banned_until: user.banned_until ?? undefined,
    app_metadata: appMetadataOf(user),
    user_metadata: parseObject(user.user_metadata),
    identities: identitiesOf(user),
    created_at: user.created_at,
    updated_at: user.updated_at,
    factors: factorsOf(user),
    is_anonymous: user.anonymous_since !== null,
  });
}

/**
 * Whether the account shows the `email` identity: it signs in with its address (a password,
 * e-mailed links). An account a provider created has none until its member sets a password.
 */
export function hasEmailIdentity(user: UserRow): boolean {
  return user.encrypted_password !== null || parseObject(user.app_metadata).provider === "email";
}

/** Every identity of the account as the user object lists them; the `email` one first. */
export function identitiesOf(user: UserRow): Record<string, unknown>[] {
  const linked = parseArray(user.linked_identities);
  if (!hasEmailIdentity(user)) return linked;
  const confirmedAt = user.email_confirmed_at ?? undefined;
  return [
    {
      identity_id: user.id,
      id: user.id,
      user_id: user.id,
      identity_data: { sub: user.id, email: user.email, email_verified: confirmedAt !== undefined, phone_verified: false },
      provider: "email",
      last_sign_in_at: user.last_sign_in_at ?? user.created_at,
      created_at: user.created_at,
      updated_at: user.updated_at,
      email: user.email,
    },
    ...linked,
  ];
}

/** `app_metadata` with `providers` derived from the identities, as Supabase Auth keeps it. */
export function appMetadataOf(user: UserRow): Record<string, unknown> {
  const metadata = parseObject(user.app_metadata);
  const providers = [...new Set(identitiesOf(user).map((identity) => String(identity.provider)))];
  return providers.length > 0 ? { ...metadata, providers } : metadata;
}

function parseArray(json: string): Record<string, unknown>[] {
  if (json === "[]") return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  } catch {
    return [];
  }
}

/** The account's second factors as the user object lists them; undefined (omitted) when it has none. */
function factorsOf(user: UserRow): unknown[] | undefined {
  try {
    const factors: unknown = JSON.parse(user.mfa_factors);
    return Array.isArray(factors) && factors.length > 0 ? factors : undefined;
  } catch {
    return undefined;
  }
}

export interface SessionJson {
  access_token: string;
  token_type: "bearer";
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: Record<string, unknown>;
  weak_password?: { message: string; reasons: string[] };
  /** The granted scopes, on a session issued through an OAuth 2.1 client (ADR 0075). */
  scope?: string;
}

export function parseObject(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}
