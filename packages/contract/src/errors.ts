/** What a code means on the wire: its HTTP status and the message sent when the thrower gives none. */
export interface ErrorEntry {
  status: number;
  message: string;
}

/**
 * Every error code any of Memory Box's APIs answers, declared once. Clients switch on codes, so a
 * code is never renamed once shipped. Where Supabase Auth (GoTrue) or Supabase Storage fixes a code
 * for a situation, that code is used on every API; a few GoTrue codes take another status at some
 * call sites, as the reference server does (the thrower says so).
 */
export const errorCatalogue = {
  // Any API: the request itself.
  validation_failed: { status: 400, message: "The request is not valid." },
  bad_json: { status: 400, message: "Could not parse request body as JSON" },
  bad_request: { status: 400, message: "The request could not be understood." },
  invalid_url: { status: 400, message: "The URL is not valid." },
  uri_too_long: { status: 414, message: "A part of the path is too long." },
  nul_character: { status: 400, message: "Text may not contain the NUL character (U+0000)." },
  not_found: { status: 404, message: "Not found" },
  method_not_allowed: { status: 405, message: "Method not allowed" },
  request_entity_too_large: { status: 413, message: "Request body too large" },
  unsupported_media_type: { status: 415, message: "Unsupported media type" },
  over_request_rate_limit: { status: 429, message: "Request rate limit reached" },
  unexpected_failure: { status: 500, message: "Something went wrong on our side. Please try again." },
  insufficient_storage: {
    status: 507,
    message: "The server's storage is full, so nothing was saved. Ask whoever runs Memory Box to free some space.",
  },
  service_unavailable: { status: 503, message: "The server is busy. Please try again in a moment." },

  // Any create that takes an Idempotency-Key (POST /api/v1/memories, POST /api/v1/memories/{id}/comments).
  idempotency_key_invalid: {
    status: 400,
    message: "Idempotency-Key must be 1 to 255 printable characters without spaces.",
  },
  idempotency_key_reused: {
    status: 422,
    message: "This Idempotency-Key was already used for a different request. Send a new key for a new request.",
  },
  idempotency_key_in_use: {
    status: 409,
    message: "The same request is still being saved. Try again in a moment.",
  },

  // The installed app's share target (POST /share) when the service worker does not answer it.
  share_from_another_site: {
    status: 403,
    message: "Photos can be shared to Memory Box only from this device's share sheet, not from another site.",
  },

  // The e-mail digest's one-click unsubscribe (POST /api/v1/notifications/email/unsubscribe).
  unsubscribe_link_invalid: {
    status: 400,
    message: "This unsubscribe link is not valid. Sign in and turn the e-mail digest off in Settings, under Notifications.",
  },

  // Any API: who is asking.
  not_authenticated: { status: 401, message: "Not authenticated" },
  no_authorization: { status: 401, message: "This endpoint requires a valid Bearer token" },
  bad_jwt: { status: 403, message: "invalid JWT: unable to parse or verify signature" },
  not_admin: { status: 403, message: "User not allowed" },
  forbidden: { status: 403, message: "You are not allowed to do this." },
  session_not_found: { status: 403, message: "Session from session_id claim in JWT does not exist" },
  user_not_found: { status: 404, message: "User not found" },
  email_not_invited: { status: 403, message: "This email address is not invited to access the platform" },
  user_banned: { status: 403, message: "User is banned" },

  // Memories (/api/v1/memories, /api/v1/tags).
  memory_not_found: { status: 404, message: "Memory not found." },
  memory_changed: { status: 409, message: "Someone else changed this memory in the meantime. Reload it and try again." },
  invalid_cursor: { status: 400, message: "The page cursor is not valid." },
  invalid_if_match: { status: 400, message: 'If-Match must be an ETag of this API, such as "v3".' },
  duplicate_photo: { status: 400, message: "A photo is listed twice." },
  unknown_photo: { status: 400, message: "A listed photo does not exist. Upload it first." },
  photo_in_use: { status: 409, message: "A listed photo belongs to another memory." },

  // Comments and reactions (/api/v1/memories/{id}/comments, /reactions).
  comment_not_found: { status: 404, message: "This comment does not exist any more." },
  not_comment_author: { status: 403, message: "Only the member who wrote a comment can edit or delete it." },

  // Photos (/api/v1/photos and the signed photo URLs).
  file_required: { status: 400, message: "Upload the photo as multipart/form-data with a field named file." },
  one_file_per_upload: { status: 400, message: "Upload one photo per request; nothing was stored." },
  malformed_multipart: { status: 400, message: "The upload is not complete multipart/form-data with a field named file." },
  unsupported_image_type: {
    status: 415,
    message: "The file is not a supported image; use JPEG, PNG, WebP, GIF, AVIF or HEIC.",
  },
  image_too_large: { status: 422, message: "The image has too many pixels." },
  corrupt_image: { status: 422, message: "The image could not be read; the file may be damaged or incomplete." },

  // Videos: what checking an uploaded video refuses (nothing of it is stored).
  video_empty: { status: 422, message: "The video file is empty." },
  unsupported_video_type: { status: 415, message: "The file is not a supported video; use MP4, MOV or WebM." },
  video_extension_mismatch: {
    status: 415,
    message: "The file's name says one kind of video and its content another; upload the file as the camera saved it.",
  },
  video_too_large: { status: 413, message: "The video is larger than this Memory Box accepts." },
  video_too_long: { status: 422, message: "The video is longer than this Memory Box accepts." },
  video_dimensions_unsupported: { status: 422, message: "The video's picture size is not supported." },
  corrupt_video: { status: 422, message: "The video could not be read; the file may be damaged or incomplete." },
  undecodable_video: { status: 422, message: "The video's picture could not be decoded; its format is not supported." },
  video_timeout: { status: 422, message: "Reading the video took too long; the file may be damaged." },
  // What a video's preparation, after its upload, keeps as its `error_code` when nothing more precise says why.
  video_preparation_failed: { status: 422, message: "The video could not be prepared for playing." },
  // Live Photos (POST /api/v1/photos/{id}/motion).
  photo_not_found: { status: 404, message: "No photo of yours has this id." },
  not_a_still: { status: 409, message: "Only a still photo can be given motion; this one is a video or has motion already." },
  motion_too_long: { status: 422, message: "A Live Photo's motion is at most 15 seconds long." },

  // Stored objects and buckets (/storage/v1).
  object_not_found: { status: 404, message: "No stored object has this key." },
  invalid_key: { status: 400, message: "Invalid storage key." },
  invalid_range: { status: 400, message: "Invalid byte range." },
  range_not_satisfiable: { status: 416, message: "The requested range lies outside the object." },
  invalid_bucket_name: {
    status: 400,
    message: "Bucket names are 2-63 lower-case letters, digits, dots, dashes or underscores.",
  },
  already_exists: { status: 409, message: "The resource already exists" },
  photos_stay_private: { status: 400, message: "The photo bucket is always private." },
  bucket_required: { status: 400, message: "Memory Box keeps its photos in this bucket; it cannot be deleted." },
  bucket_not_empty: { status: 409, message: "The bucket you tried to delete is not empty" },

  // Invitations (/rest/v1/rpc).
  invalid_email: { status: 400, message: "This is not a valid e-mail address." },
  invitation_not_found: { status: 404, message: "This address is not on the invitation list." },

  // The member's own account (/api/v1/account).
  device_not_found: { status: 404, message: "This device is not signed in any more." },
  /** The message names what is wrong with the archive; nothing of it was imported. */
  archive_refused: { status: 422, message: "The archive cannot be imported; nothing was changed." },
  import_busy: { status: 409, message: "Another import is running; try again when it has finished." },

  // Resumable uploads (/api/v1/uploads, tus 1.0.0).
  upload_not_found: {
    status: 404,
    message: "This upload does not exist (any more): it finished, was cancelled or expired. Start it again.",
  },
  upload_offset_conflict: {
    status: 409,
    message: "The upload does not continue where the server stopped; ask for its offset and go on from there.",
  },
  upload_length_required: {
    status: 400,
    message: "Say the file's size in Upload-Length; uploads of unknown length are not taken.",
  },

  // Members (/api/v1/members).
  owner_only: { status: 403, message: "Only an owner of this Memory Box can do this." },
  member_not_found: { status: 404, message: "No member has this id." },
  already_member: { status: 409, message: "This address already belongs to a member." },
  last_owner: {
    status: 409,
    message: "A Memory Box needs at least one owner: make another member owner first.",
  },

  // Sign-in (/auth/v1), with the codes and statuses of Supabase Auth.
  invalid_credentials: { status: 400, message: "Invalid login credentials" },
  email_not_confirmed: { status: 400, message: "Email not confirmed" },
  email_exists: { status: 422, message: "A user with this email address has already been registered" },
  user_already_exists: { status: 422, message: "User already registered" },
  weak_password: { status: 422, message: "Password is too weak." },
  same_password: { status: 422, message: "New password should be different from the old password." },
  signup_disabled: { status: 422, message: "Signups not allowed for this instance" },
  phone_provider_disabled: { status: 422, message: "Phone logins are disabled" },
  anonymous_provider_disabled: { status: 422, message: "Anonymous sign-ins are disabled" },
  // An anonymous account's session at the product API (ADR 0072).
  anonymous_not_member: {
    status: 403,
    message: "An anonymous account cannot open the collection: sign up with an e-mail address.",
  },
  provider_disabled: { status: 400, message: "Provider (issuer) is not enabled" },
  web3_provider_disabled: { status: 422, message: "Web3 provider is disabled" },
  refresh_token_not_found: { status: 400, message: "Invalid Refresh Token: Refresh Token Not Found" },
  refresh_token_already_used: { status: 400, message: "Invalid Refresh Token: Already Used" },
  otp_expired: { status: 403, message: "Token has expired or is invalid" },
  otp_disabled: { status: 422, message: "Signups not allowed for otp" },
  flow_state_not_found: { status: 404, message: "invalid flow state, no valid flow state found" },
  flow_state_expired: { status: 422, message: "invalid flow state, flow state has expired" },
  bad_code_verifier: { status: 400, message: "code challenge does not match previously saved code verifier" },
  reauthentication_needed: { status: 400, message: "Password update requires reauthentication" },
  reauthentication_not_valid: { status: 422, message: "Nonce has expired or is invalid" },
  email_send_failed: { status: 502, message: "Error sending email" },
  over_email_send_rate_limit: { status: 429, message: "For security purposes, you can only request this later." },
  // OpenID Connect providers and linked identities (ADR 0034), with Supabase Auth's codes.
  bad_oauth_state: { status: 400, message: "OAuth state not found or expired" },
  bad_oauth_callback: { status: 400, message: "The provider's answer to the sign-in is missing or not valid" },
  bad_id_token: { status: 400, message: "Bad ID token" },
  provider_email_needs_verification: {
    status: 422,
    message: "The provider has not verified this e-mail address, so it cannot sign in here",
  },
  provider_unavailable: { status: 502, message: "The sign-in provider could not be reached. Try again in a moment." },
  identity_already_exists: { status: 422, message: "Identity is already linked" },
  identity_not_found: { status: 422, message: "Identity doesn't exist" },
  single_identity_not_deletable: { status: 422, message: "User must have at least 1 identity after unlinking" },
  email_identity_not_deletable: {
    status: 422,
    message: "The e-mail address is the membership itself and stays; unlink a provider instead",
  },
  // Web3 wallets (ADR 0035), with Supabase Auth's codes. `invalid_grant` is the OAuth error Supabase
  // Auth answers for a signed message it refuses; its body also carries `error`/`error_description`.
  web3_unsupported_chain: { status: 400, message: "Unsupported chain" },
  invalid_grant: { status: 400, message: "The signed message is not valid here" },
  // SAML 2.0 single sign-on (ADR 0036), with Supabase Auth's codes; `sso_provider_disabled` is its
  // answer while SAML is off.
  sso_provider_disabled: { status: 422, message: "SAML 2.0 is disabled" },
  sso_provider_not_found: { status: 404, message: "No SSO provider assigned for this domain" },
  // The OAuth 2.1 server's client registry (issue #36).
  oauth_client_not_found: { status: 404, message: "OAuth client not found" },
  // The authorization code flow (ADR 0075), with Supabase Auth's codes; `invalid_client` is the
  // token endpoint's OAuth error, its body also carrying `error`/`error_description`.
  oauth_authorization_not_found: { status: 404, message: "authorization not found" },
  oauth_consent_not_found: { status: 404, message: "No active grant found for this client" },
  invalid_client: { status: 401, message: "Client authentication failed" },
  // A session an OAuth 2.1 client holds, anywhere but `GET /auth/v1/user` (ADR 0075).
  oauth_client_session_not_allowed: {
    status: 403,
    message: "An app signed in with Memory Box can read your account only, not open the collection or change the account.",
  },
  // Paired frames (ADR 0076): a code a member typed that no frame is waiting with (unknown, expired
  // or already answered), and a frame that is not (or no longer) paired.
  frame_pairing_not_found: {
    status: 404,
    message: "No frame is waiting with this code. Check the code on the frame; it shows a new one after ten minutes.",
  },
  frame_not_found: { status: 404, message: "Frame not found" },
  sso_domain_already_exists: { status: 400, message: "SSO domain is already assigned to an SSO identity provider" },
  saml_idp_already_exists: { status: 422, message: "SAML Identity Provider with this EntityID already exists" },
  saml_idp_not_found: { status: 404, message: "A SAML connection has not been established with this Identity Provider" },
  saml_entity_id_mismatch: {
    status: 400,
    message: "SAML Metadata can be updated only if the EntityID matches for the provider",
  },
  saml_metadata_fetch_failed: { status: 400, message: "The SAML Metadata could not be fetched from metadata_url" },
  // Not Supabase Auth's: the metadata address is, or leads to, one inside the server's network (ADR 0045).
  saml_metadata_address_refused: {
    status: 400,
    message: "metadata_url points to a loopback, private or link-local address, which this server does not fetch",
  },
  saml_relay_state_not_found: { status: 404, message: "SAML RelayState does not exist, try logging in again?" },
  saml_relay_state_expired: { status: 422, message: "SAML RelayState has expired. Try logging in again?" },
  saml_assertion_no_user_id: {
    status: 400,
    message:
      "SAML Assertion did not contain a persistent Subject Identifier attribute or Subject NameID uniquely identifying this user",
  },
  saml_assertion_no_email: { status: 400, message: "SAML Assertion does not contain an email address" },
  saml_email_domain_not_allowed: {
    status: 403,
    message: "This identity provider signs in addresses of its own domains only",
  },
  // Ways in that Memory Box does not offer (yet), answered as Supabase Auth does when they are off.
  manual_linking_disabled: { status: 404, message: "Manual linking is disabled" },
  mfa_totp_enroll_not_enabled: { status: 422, message: "MFA enroll is disabled for TOTP" },
  mfa_phone_enroll_not_enabled: { status: 422, message: "MFA enroll is disabled for Phone" },
  mfa_webauthn_enroll_not_enabled: { status: 422, message: "MFA enroll is disabled for WebAuthn" },
  mfa_factor_not_found: { status: 404, message: "Factor not found" },

  // Second factors (/auth/v1/factors), with the codes and statuses of Supabase Auth.
  mfa_factor_name_conflict: {
    status: 422,
    message: "A factor with the friendly name already exists for this user",
  },
  too_many_enrolled_mfa_factors: { status: 422, message: "Maximum number of verified factors reached, unenroll to continue" },
  insufficient_aal: { status: 403, message: "AAL2 required to enroll a new factor" },
  mfa_verification_failed: { status: 422, message: "Invalid TOTP code entered" },
  mfa_factor_locked: {
    status: 429,
    message: "Too many wrong codes were typed for this authenticator app. Try again in 15 minutes, or ask an owner to reset it.",
  },
  mfa_challenge_expired: {
    status: 422,
    message: "MFA challenge has expired, verify against another challenge or create a new challenge.",
  },
  mfa_ip_address_mismatch: { status: 422, message: "Challenge and verify IP addresses mismatch." },
  // Recovery codes (/auth/v1/factors/recovery-codes, Memory Box's own, ADR 0042).
  mfa_recovery_codes_locked: {
    status: 429,
    message:
      "Too many wrong recovery codes were typed. Try again in 15 minutes, or ask an owner to reset your two-step verification.",
  },

  // Passkeys and security keys (/auth/v1/passkeys, WebAuthn factors), with Supabase Auth's codes.
  webauthn_challenge_not_found: { status: 400, message: "WebAuthn challenge not found or already used" },
  webauthn_challenge_expired: { status: 400, message: "WebAuthn challenge has expired, start again" },
  webauthn_verification_failed: { status: 400, message: "The authenticator's answer could not be verified" },
  webauthn_credential_exists: { status: 422, message: "This authenticator is already registered" },
  webauthn_credential_not_found: { status: 404, message: "Passkey not found" },
  too_many_passkeys: { status: 422, message: "Maximum number of passkeys reached, remove one to continue" },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof errorCatalogue;

/**
 * Each code under its own name, for clients that switch on codes: `error.code === ErrorCode.memory_changed`.
 * Each name is its own value, so the object is read, not built: the type holds the names to the
 * catalogue, and a web page that compares codes does not download every code's message with them.
 */
export const ErrorCode = new Proxy(Object.freeze({}), { get: (_target, name) => name }) as {
  readonly [Code in ErrorCode]: Code;
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && Object.hasOwn(errorCatalogue, value);
}
