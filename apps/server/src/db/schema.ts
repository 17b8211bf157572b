/**
 * Table types for Kysely: one interface per table, named `XTable`, collected in `Database`.
 * Timestamps are ISO-8601 strings and JSON values are text on both engines (ADR 0004).
 */
import type { Generated, Insertable, Selectable, Updateable } from "kysely";

export interface Database {
  instance_settings: InstanceSettingsTable;
  users: UsersTable;
  profiles: ProfilesTable;
  invitations: InvitationsTable;
  sessions: SessionsTable;
  mfa_factors: MfaFactorsTable;
  mfa_challenges: MfaChallengesTable;
  mfa_recovery_code_sets: MfaRecoveryCodeSetsTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  passkeys: PasskeysTable;
  identities: IdentitiesTable;
  oauth_states: OauthStatesTable;
  used_id_tokens: UsedIdTokensTable;
  sso_providers: SsoProvidersTable;
  sso_domains: SsoDomainsTable;
  oauth_clients: OauthClientsTable;
  oauth_authorizations: OauthAuthorizationsTable;
  oauth_consents: OauthConsentsTable;
  webauthn_challenges: WebauthnChallengesTable;
  refresh_tokens: RefreshTokensTable;
  flow_states: FlowStatesTable;
  one_time_tokens: OneTimeTokensTable;
  password_failures: PasswordFailuresTable;
  audit_log: AuditLogTable;
  rate_limit_counters: RateLimitCountersTable;
  memories: MemoriesTable;
  memory_tags: MemoryTagsTable;
  memory_stats: MemoryStatsTable;
  memory_months: MemoryMonthsTable;
  memory_tag_counts: MemoryTagCountsTable;
  search_words: SearchWordsTable;
  photos: PhotosTable;
  comments: CommentsTable;
  reactions: ReactionsTable;
  buckets: BucketsTable;
  idempotency_keys: IdempotencyKeysTable;
  media_jobs: MediaJobsTable;
  email_digests: EmailDigestsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_notifications: PushNotificationsTable;
  box_settings: BoxSettingsTable;
  frames: FramesTable;
  oauth_device_codes: OauthDeviceCodesTable;
  mail_outbox: MailOutboxTable;
}

/**
 * A paired frame (ADR 0076): what it shows and how, as JSON (the contract's `FrameSelection` and
 * `FrameDisplay`), who paired it, and the session it holds (null until it fetched its tokens). It
 * goes with its session and with its pairer's account.
 */
export interface FramesTable {
  id: string;
  name: string;
  selection: string;
  display: string;
  paired_by: string;
  session_id: string | null;
  paired_at: string;
  /** When it last asked for its slides (written at most once a minute). */
  last_seen_at: string | null;
}
export type FrameRow = Selectable<FramesTable>;

/** A device's pairing under way (RFC 8628, ADR 0076): ten minutes to answer, the device code kept as its SHA-256. */
export interface OauthDeviceCodesTable {
  id: string;
  device_code_hash: string;
  /** Eight letters of `USER_CODE_ALPHABET`, without the dash. */
  user_code: string;
  client_id: string;
  scope: string;
  status: "pending" | "approved" | "denied";
  /** Seconds the device waits between polls; grows by five at each poll that came sooner. */
  interval_seconds: number;
  last_polled_at: string | null;
  created_at: string;
  expires_at: string;
  /** The member who approved or denied it. */
  answered_by: string | null;
  /** The frame its approval created (null once that frame is removed). */
  frame_id: string | null;
  /** When the device code was exchanged: it works once. */
  used_at: string | null;
  /** The session the exchange started: a replayed device code ends it. */
  session_id: string | null;
}
export type OauthDeviceCodeRow = Selectable<OauthDeviceCodesTable>;

/**
 * The box's name, cover and "together since" (ADR 0065): at most one row, `id` 1, written the first
 * time an owner saves them. The cover is cleared when its photo is deleted (a foreign key).
 */
export interface BoxSettingsTable {
  id: number;
  name: string | null;
  cover_photo_id: string | null;
  /** "YYYY-MM-DD". */
  together_since: string | null;
  updated_at: string;
  /** The owner who saved last; null once their account is deleted. */
  updated_by: string | null;
}

/** Operator-level values that must survive restarts, such as a generated signing key. */
export interface InstanceSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface UsersTable {
  id: string;
  aud: string;
  role: string;
  /** Always lower-case. */
  email: string;
  /** argon2id PHC string; null for accounts that never set a password. */
  encrypted_password: string | null;
  email_confirmed_at: string | null;
  invited_at: string | null;
  confirmation_sent_at: string | null;
  recovery_sent_at: string | null;
  /** The address an e-mail change waits to confirm. */
  email_change: string | null;
  email_change_sent_at: string | null;
  reauthentication_sent_at: string | null;
  last_sign_in_at: string | null;
  banned_until: string | null;
  /** JSON object. */
  app_metadata: string;
  /** JSON object. */
  user_metadata: string;
  created_at: string;
  updated_at: string;
  /** JSON array: a summary of the account's second factors (no secrets), as the user object shows them. */
  mfa_factors: Generated<string>;
  /** JSON array: the account's provider identities as the user object shows them (ADR 0034). */
  linked_identities: Generated<string>;
  /** Wrong e-mailed codes typed for this account since `failed_verifications_since`. */
  failed_verifications: number;
  failed_verifications_since: string | null;
  /** The language the member chose (`user_metadata.locale`), or null to follow the browser (ADR 0049). */
  locale: Generated<string | null>;
  /** When an anonymous account signed in (ADR 0072); null for every account with an address. */
  anonymous_since: Generated<string | null>;
  /** When the member closed the first-run guide on home (ADR 0066); null while it is still shown. */
  guide_dismissed_at: Generated<string | null>;
}
export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserRowUpdate = Updateable<UsersTable>;

export interface ProfilesTable {
  user_id: string;
  display_name: string;
  created_at: string;
  updated_at: string;
}

/** The invitation list: only these addresses may create an account or sign in. */
export interface InvitationsTable {
  /** Always lower-case. */
  email: string;
  invited_by: string | null;
  invited_at: string;
  used_at: string | null;
  used_by: string | null;
  /** "owner" or "member": owners manage who is in. */
  role: Generated<"owner" | "member">;
}
export type InvitationRow = Selectable<InvitationsTable>;

export interface SessionsTable {
  id: string;
  user_id: string;
  aal: string;
  /** JSON array of `{method, timestamp}`, newest first. */
  amr: string;
  user_agent: string | null;
  ip: string | null;
  created_at: string;
  updated_at: string;
  refreshed_at: string | null;
  /** The OAuth 2.1 client the session was issued to (ADR 0075); null for a member's own sign-in. */
  oauth_client_id: string | null;
  /** The scopes granted to that client, space-separated. */
  scope: string | null;
  /** The authorization whose code started the session: a replayed code ends it. */
  oauth_authorization_id: string | null;
}
export type SessionRow = Selectable<SessionsTable>;

export interface RefreshTokensTable {
  id: string;
  /** SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  session_id: string;
  parent_id: string | null;
  revoked_at: string | null;
  created_at: string;
  updated_at: string;
}
export type RefreshTokenRow = Selectable<RefreshTokensTable>;

/** A PKCE flow: the code challenge sent with a request, and the auth code issued for it. */
export interface FlowStatesTable {
  id: string;
  user_id: string;
  code_challenge: string;
  code_challenge_method: string;
  authentication_method: string;
  auth_code_hash: string | null;
  auth_code_issued_at: string | null;
  created_at: string;
  /**
   * A sign-up's chosen password (hash) when the sign-up itself sent this flow's challenge: it
   * becomes the account's when the auth code is exchanged with the verifier (ADR 0046).
   */
  pending_password_hash: string | null;
  /** That sign-up's chosen profile data (JSON), applied with the password. */
  pending_user_metadata: string | null;
}
export type FlowStateRow = Selectable<FlowStatesTable>;

/** Links and codes sent by e-mail. Single use: a row is deleted when it is used. */
/**
 * Password attempts per address that were not (yet) proven right: each attempt is counted before
 * its password is checked, and a right password deletes the row (ADR 0015).
 */
export interface PasswordFailuresTable {
  /** SHA-256 of the lower-cased address. */
  address_hash: string;
  /** Attempts in the current run; a run ends a day after its last attempt. */
  failures: number;
  last_failed_at: string;
  /** No attempt for this address is checked before this time. */
  retry_at: string | null;
}

export interface OneTimeTokensTable {
  id: string;
  user_id: string;
  token_type: string;
  /** SHA-256 of the link token. */
  token_hash: string;
  /** SHA-256 of the e-mail address and the numeric code. */
  otp_hash: string;
  relates_to: string;
  flow_state_id: string | null;
  created_at: string;
  expires_at: string;
  /** A sign-up's chosen password, applied only when confirmed from the browser that signed up. */
  pending_password_hash: string | null;
  /** A sign-up's chosen profile data (JSON), applied with the password. */
  pending_user_metadata: string | null;
  /** SHA-256 of the secret in the signing-up browser's cookie. */
  browser_binding_hash: string | null;
  /** Wrong codes typed for this token; it dies at the fifth. */
  failed_attempts: number;
}
export type OneTimeTokenRow = Selectable<OneTimeTokensTable>;

export interface MfaFactorsTable {
  id: string;
  user_id: string;
  friendly_name: string;
  factor_type: "totp" | "webauthn";
  status: "unverified" | "verified";
  /** The TOTP secret, base32. */
  secret: string | null;
  /** A security key's credential, JSON (`StoredCredential`), once the factor is verified. */
  webauthn_credential: string | null;
  created_at: string;
  updated_at: string;
  last_challenged_at: string | null;
  /** The 30 s time step of the last code accepted; a code of that step or an earlier one is refused. */
  last_used_step: number | null;
  /** Wrong authenticator codes typed since `failed_codes_since`; too many in the window lock the factor. */
  failed_codes: Generated<number>;
  failed_codes_since: string | null;
}
export type MfaFactorRow = Selectable<MfaFactorsTable>;

export interface MfaChallengesTable {
  id: string;
  factor_id: string;
  ip: string | null;
  created_at: string;
  verified_at: string | null;
  failed_attempts: Generated<number>;
  /** What the security key must sign, base64url; null for a TOTP challenge. */
  webauthn_challenge: string | null;
}
export type MfaChallengeRow = Selectable<MfaChallengesTable>;

/** An account's recovery codes as a whole (ADR 0042): when they were made, and the wrong codes typed since `failed_codes_since`. */
export interface MfaRecoveryCodeSetsTable {
  user_id: string;
  created_at: string;
  failed_codes: Generated<number>;
  failed_codes_since: string | null;
}
export type MfaRecoveryCodeSetRow = Selectable<MfaRecoveryCodeSetsTable>;

/** One recovery code: its keyed hash (never the code), and when it was used, if it was. */
export interface MfaRecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}
export type MfaRecoveryCodeRow = Selectable<MfaRecoveryCodesTable>;

/** A provider identity (OpenID Connect) linked to an account: who `sub` is at `provider`. */
export interface IdentitiesTable {
  id: string;
  user_id: string;
  /** The provider's configured id, such as google. */
  provider: string;
  /** The provider's subject (`sub`) for this person. */
  provider_id: string;
  /** Lower-case; as the provider last gave it. */
  email: string | null;
  /** JSON object: the provider's claims about the person, as the user object shows them. */
  identity_data: string;
  last_sign_in_at: string | null;
  created_at: string;
  updated_at: string;
}
export type IdentityRow = Selectable<IdentitiesTable>;

/** A sign-in (or a linking) under way at a provider, between /authorize and /callback. */
export interface OauthStatesTable {
  /** SHA-256 of the `state` parameter. */
  id: string;
  provider: string;
  nonce: string;
  /** PKCE verifier towards the provider. */
  code_verifier: string;
  /** Where the browser goes afterwards (already checked against the allow-list). */
  redirect_to: string;
  /** The client's PKCE challenge, for the PKCE flow. */
  code_challenge: string | null;
  code_challenge_method: string | null;
  /** The member linking this identity; null for a sign-in. */
  link_user_id: string | null;
  created_at: string;
  expires_at: string;
}
export type OauthStateRow = Selectable<OauthStatesTable>;

/** ID tokens that already signed someone in, refused again until they expire. */
export interface UsedIdTokensTable {
  token_hash: string;
  expires_at: string;
}

/** A SAML 2.0 identity provider registered through the admin API (ADR 0036). */
export interface SsoProvidersTable {
  id: string;
  resource_id: string | null;
  /** The identity provider's entity ID, from its metadata. */
  entity_id: string;
  metadata_xml: string;
  /** Where the metadata was fetched from, when it was given as a URL. */
  metadata_url: string | null;
  /** JSON object, as Supabase Auth's `attribute_mapping`. */
  attribute_mapping: string;
  name_id_format: string | null;
  created_at: string;
  updated_at: string;
}
export type SsoProviderRow = Selectable<SsoProvidersTable>;

/** A client of the OAuth 2.1 server (issue #36, ADR 0071), as Supabase Auth's admin API registers it. */
export interface OauthClientsTable {
  id: string;
  client_name: string | null;
  client_uri: string | null;
  logo_uri: string | null;
  /** JSON array of strings. */
  redirect_uris: string;
  /** JSON array: `authorization_code`, `refresh_token`. */
  grant_types: string;
  client_type: "public" | "confidential";
  token_endpoint_auth_method: "none" | "client_secret_basic" | "client_secret_post";
  registration_type: "manual" | "dynamic";
  /** SHA-256 of the secret (base64url); null for a public client. */
  client_secret_hash: string | null;
  created_at: string;
  updated_at: string;
}
export type OauthClientRow = Selectable<OauthClientsTable>;

/** A client's request for a member's consent, and its code once approved (ADR 0075). */
export interface OauthAuthorizationsTable {
  id: string;
  authorization_id: string;
  client_id: string;
  user_id: string | null;
  redirect_uri: string;
  scope: string;
  state: string | null;
  code_challenge: string;
  code_challenge_method: "S256";
  status: "pending" | "approved" | "denied" | "expired";
  /** SHA-256 of the code (base64url); the code itself is never stored. */
  authorization_code_hash: string | null;
  created_at: string;
  expires_at: string;
  approved_at: string | null;
  used_at: string | null;
}
export type OauthAuthorizationRow = Selectable<OauthAuthorizationsTable>;

/** What a member agreed a client may have; one active (not revoked) per member and client. */
export interface OauthConsentsTable {
  id: string;
  user_id: string;
  client_id: string;
  /** Space-separated. */
  scopes: string;
  granted_at: string;
  revoked_at: string | null;
}
export type OauthConsentRow = Selectable<OauthConsentsTable>;

/** An e-mail domain whose members sign in with one SAML identity provider. */
export interface SsoDomainsTable {
  domain: string;
  sso_provider_id: string;
  created_at: string;
  updated_at: string;
}
export type SsoDomainRow = Selectable<SsoDomainsTable>;

export interface PasskeysTable {
  id: string;
  user_id: string;
  /** base64url of the authenticator's credential id. */
  credential_id: string;
  /** base64url of the COSE public key. */
  public_key: string;
  sign_count: number;
  /** JSON array of the transports the authenticator named (usb, internal, hybrid, …). */
  transports: string;
  friendly_name: string;
  created_at: string;
  updated_at: string;
  last_used_at: string | null;
}
export type PasskeyRow = Selectable<PasskeysTable>;

export interface WebauthnChallengesTable {
  id: string;
  /** The member registering a passkey; null for a sign-in, whose member the answer names. */
  user_id: string | null;
  purpose: "passkey_registration" | "passkey_authentication";
  /** base64url of the random challenge the authenticator signs. */
  challenge: string;
  created_at: string;
  expires_at: string;
}
export type WebauthnChallengeRow = Selectable<WebauthnChallengesTable>;

export interface AuditLogTable {
  id: string;
  created_at: string;
  action: string;
  actor_id: string | null;
  actor_email: string | null;
  ip: string | null;
  /** JSON object; never holds a password, token or key. */
  detail: string | null;
}
export type NewAuditLogRow = Insertable<AuditLogTable>;

export interface MemoriesTable {
  id: string;
  title: string;
  content: string | null;
  /** "YYYY-MM-DD" or null. */
  memory_date: string | null;
  /** The author; null once their account is deleted. */
  user_id: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
  /** Increases with every change; a save based on an older version is refused. */
  version: number;
  /** `{memory_date or 0000-00-00}|{created_at}|{id}`: listing order and keyset cursor in one column. */
  sort_key: string;
  /** Lower-cased title, description and tags, for substring search. */
  search_text: string;
  /** Where it happened (ADR 0057): all null without a place. */
  place_name: Generated<string | null>;
  /** The photo that leads its page (ADR 0062): one of its own, null for the first. */
  cover_photo_id: Generated<string | null>;
  place_latitude: Generated<number | null>;
  place_longitude: Generated<number | null>;
  /** ISO 3166-1 alpha-2, found from the coordinates; null at sea or far from any known place. */
  place_country: Generated<string | null>;
  /** `place_name` folded (`foldForSearch`), for the place filter. */
  place_key: Generated<string | null>;
  /** The point on the map's Web Mercator grid (lib/place-grid.ts), for clustering. */
  place_x: Generated<number | null>;
  place_y: Generated<number | null>;
}
export type MemoryRow = Selectable<MemoriesTable>;

export interface MemoryTagsTable {
  memory_id: string;
  position: number;
  tag: string;
  /** Lower-cased, for filtering and counting regardless of case. */
  tag_key: string;
  /** A copy of the memory's `sort_key`, so a tag's memories come out of one index in listing order. Filled and kept by triggers when not given. */
  sort_key: Generated<string>;
}

/** One row (id 1), kept by triggers: see migrations 2026_11_21_120000 and 2026_11_21_130000. */
export interface MemoryStatsTable {
  id: number;
  /** How many memories there are. */
  total: number;
  /**
   * Grows with every change to what memories there are and what they say (memories, tags, attached
   * photos, authors' names): which memories a search or tag matches and how many a month holds hold until it moves.
   */
  generation: number;
  /** Grows with every comment or reaction added or removed: the counts a page shows, not which memories it lists. */
  responses: number;
  /** How many memories have a place (migration 2026_11_28_224000): the map's total. */
  placed: Generated<number>;
}

/** How many memories each month of their sort key holds, kept by triggers (migration 2026_11_28_280000): the unfiltered timeline. */
export interface MemoryMonthsTable {
  /** `YYYY-MM` of the sort key; "0000-00" for the undated. */
  month: string;
  /** 0 once every memory of the month is gone (the row stays). */
  count: number;
}

/** How many memories carry each tag, kept by triggers (migration 2026_11_28_282000): a one-tag filter's matched count. */
export interface MemoryTagCountsTable {
  /** The tag's key, as `memory_tags.tag_key`. */
  tag_key: string;
  /** 0 once no memory carries the tag (the row stays). */
  count: number;
}

/**
 * PostgreSQL only (migration 2026_11_28_284000): every whitespace-separated word of the memories'
 * search text, with how many memories hold it, kept by triggers (ADR 0081).
 */
export interface SearchWordsTable {
  word: string;
  /** 0 once no memory holds the word (the row stays). */
  count: number;
}

/** What `memory_stats` says of the collection at one moment, as the member check reads it. */
export type CollectionStats = Omit<MemoryStatsTable, "id" | "placed">;

export interface PhotosTable {
  id: string;
  /** Null until the photo is attached to a memory; unattached uploads are swept. */
  memory_id: string | null;
  position: number | null;
  /** The member's words under it (ADR 0062), null without. */
  caption: Generated<string | null>;
  owner_id: string | null;
  object_key: string;
  preview_key: string;
  thumbnail_key: string;
  /** The metadata-free full-size copy served as the photo; null until rendered for photos older than it. */
  display_key: string | null;
  /** Of the original as uploaded (`object_key`), which is kept but never served. */
  content_type: string;
  bytes: number;
  width: number;
  height: number;
  taken_at: string | null;
  placeholder: string;
  created_at: string;
  /** A still ('photo'), a video ('video') or a still with its motion ('live'); ADR 0055. */
  kind: Generated<MediaKind>;
  /** A video's length, or a Live Photo's motion's; null for a still. */
  duration_ms: number | null;
  /**
   * The metadata-free copy that plays (of the video, or of a Live Photo's motion), named from the
   * upload on and served once `status` is 'ready'; null for a still.
   */
  web_key: string | null;
  web_content_type: string | null;
  /** The web copy's size, once made. */
  web_bytes: number | null;
  /** A Live Photo's clip as uploaded, kept but never served; null otherwise. */
  motion_key: string | null;
  motion_bytes: number | null;
  /** 'processing' while the web copy is made, 'failed' (with `error_code`) when it could not be. */
  status: Generated<MediaStatus>;
  error_code: string | null;
  /** Where it was taken, as its original says (WGS 84 degrees); both null when it says nothing. Never in a served file. */
  latitude: number | null;
  longitude: number | null;
}
export type MediaKind = "photo" | "video" | "live";
export type MediaStatus = "ready" | "processing" | "failed";
export type PhotoRow = Selectable<PhotosTable>;

/** A member's comment on a memory; goes with the memory. */
export interface CommentsTable {
  id: string;
  memory_id: string;
  /** The author; null once their account is deleted. Only the author edits or deletes it. */
  user_id: string | null;
  body: string;
  created_at: string;
  updated_at: string;
}
export type CommentRow = Selectable<CommentsTable>;

/** A member's reaction to a memory: one row per member, memory and emoji. */
export interface ReactionsTable {
  memory_id: string;
  emoji: string;
  user_id: string;
  created_at: string;
}
export type NewPhotoRow = Insertable<PhotosTable>;

export interface BucketsTable {
  id: string;
  name: string;
  /** 1 or 0. Memory Box never serves a bucket publicly; the flag is kept for compatibility. */
  public: number;
  file_size_limit: number | null;
  /** JSON array of MIME types, or null for any. */
  allowed_mime_types: string | null;
  created_at: string;
  updated_at: string;
}
export type BucketRow = Selectable<BucketsTable>;

/**
 * An `Idempotency-Key` a member sent with a create, kept a day (ADR 0043): the request's
 * fingerprint and, once answered, the answer a retry gets back.
 */
export interface IdempotencyKeysTable {
  user_id: string;
  key: string;
  fingerprint: string;
  /** Null while the first request is being answered. */
  response_status: number | null;
  /** JSON object of the answer's headers a retry gets too (content type, ETag). */
  response_headers: string | null;
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;

export type MediaJobState = "queued" | "running" | "done" | "failed";

/** Durable media work (ADR 0054): a running job's lease says who works on it and until when. */
export interface MediaJobsTable {
  id: string;
  /** The photo or video row the job is for (no foreign key yet). */
  subject_id: string;
  kind: string;
  state: MediaJobState;
  attempts: number;
  /** 0..1. */
  progress: number;
  lease_owner: string | null;
  lease_until: string | null;
  /** A queued job is not taken before this time. */
  run_after: string;
  error_code: string | null;
  created_at: string;
  updated_at: string;
}

export type MediaJobRow = Selectable<MediaJobsTable>;

/**
 * A member's e-mail digest (ADR 0060): how often, on whose clock, what the next one covers
 * (memories added after `since`) and the last period done; a sending process holds a claim.
 */
export interface EmailDigestsTable {
  user_id: string;
  frequency: "off" | "daily" | "weekly";
  /** An IANA time zone ("Pacific/Auckland"). */
  time_zone: string;
  since: string;
  /** "YYYY-MM-DD": the local date of the last digest done; null before the first. */
  period: string | null;
  claimed_by: string | null;
  claimed_until: string | null;
  /** Failed sends in a row. */
  attempts: Generated<number>;
  /** A failed send is not tried again before this time. */
  retry_after: string | null;
  created_at: string;
  updated_at: string;
}

export type EmailDigestRow = Selectable<EmailDigestsTable>;
/** A device's Web Push subscription, kept with its session (ADR 0059). */
export interface PushSubscriptionsTable {
  session_id: string;
  user_id: string;
  endpoint: string;
  /** The subscription's P-256 public key and auth secret, base64url. */
  p256dh: string;
  auth: string;
  /** JSON text: the device's `PushPreferences`. */
  preferences: string;
  /** The device's local date ("YYYY-MM-DD") "On this day" was last queued for. */
  on_this_day_sent: string | null;
  created_at: string;
  updated_at: string;
}
export type PushSubscriptionRow = Selectable<PushSubscriptionsTable>;

export type PushNotificationState = "queued" | "running" | "sent" | "failed";

/** The outbox of push notifications, one row per notification per device (ADR 0059). */
export interface PushNotificationsTable {
  id: string;
  session_id: string;
  /** The member whose changes these are; null for "On this day". */
  actor_id: string | null;
  /** The actor's id while queued: further changes by them join this row. */
  open_key: string | null;
  /** Unique when set: "On this day" once per device per local day. */
  dedupe_key: string | null;
  /** JSON text: what the notification says (`NotificationContent`). */
  content: string;
  state: PushNotificationState;
  attempts: number;
  lease_owner: string | null;
  lease_until: string | null;
  run_after: string;
  error_code: string | null;
  created_at: string;
  updated_at: string;
}
export type PushNotificationRow = Selectable<PushNotificationsTable>;

/** The auth API's rate limits where several processes share the database (PostgreSQL; issue #37). */
export interface RateLimitCountersTable {
  key: string;
  hits: number;
  /** Milliseconds since the epoch. */
  window_ends_ms: number;
}

/** queued → sending → sent; `rejected` when the mail server refused this mail for good; `failed` when given up. */
export type MailOutboxState = "queued" | "sending" | "sent" | "rejected" | "failed";

/** Every mail the server sends, queued before it is sent (ADR 0077). */
export interface MailOutboxTable {
  id: string;
  /** What the mail is (`magic_link`, `notice.password_changed`, `invitation`, `digest`...). */
  kind: string;
  /** The rendered mail, sealed with a key outside the database; null once sent or given up. */
  sealed: string | null;
  state: MailOutboxState;
  attempts: number;
  lease_owner: string | null;
  lease_until: string | null;
  run_after: string;
  /** The last failure as a code (`ECONNECTION`, `smtp_550`), never the server's reply. */
  last_error: string | null;
  last_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}
export type MailOutboxRow = Selectable<MailOutboxTable>;
