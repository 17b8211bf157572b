import type { Migration } from "kysely/migration";
import * as createInstanceSettings from "./2026_11_21_090000_create_instance_settings";
import * as createAuthTables from "./2026_11_21_100000_create_auth_tables";
import * as createMemories from "./2026_11_21_110000_create_memories";
import * as createBuckets from "./2026_11_21_110100_create_buckets";
import * as addMemoryListCounters from "./2026_11_21_120000_add_memory_list_counters";
import * as extendListGeneration from "./2026_11_21_130000_extend_list_generation";
import * as moveGenerationOnTagTextAndOrder from "./2026_11_23_100000_move_generation_on_tag_text_and_order";
import * as addPendingRegistrations from "./2026_11_23_110000_add_pending_registrations";
import * as countWrongCodes from "./2026_11_23_120000_count_wrong_codes";
import * as countWrongPasswords from "./2026_11_24_100000_count_wrong_passwords";
import * as addPhotoDisplayCopies from "./2026_11_24_300000_add_photo_display_copies";
import * as foldSearchText from "./2026_11_24_400000_fold_search_text";
import * as addMemberRoles from "./2026_11_25_100000_add_member_roles";
import * as addMfaFactors from "./2026_11_25_110000_add_mfa_factors";
import * as addPasskeys from "./2026_11_25_120000_add_passkeys";
import * as indexMemoryMonthDay from "./2026_11_26_100000_index_memory_month_day";
import * as addCommentsAndReactions from "./2026_11_26_120000_add_comments_and_reactions";
import * as countResponsesApart from "./2026_11_26_130000_count_responses_apart";
import * as addIdentities from "./2026_11_26_140000_add_identities";
import * as addSsoProviders from "./2026_11_26_150000_add_sso_providers";
import * as indexMemoryAuthors from "./2026_11_27_090000_index_memory_authors";
import * as lockFactorCodes from "./2026_11_27_100000_lock_factor_codes";
import * as addRecoveryCodes from "./2026_11_27_150000_add_recovery_codes";
import * as keepPkceSignUpChoices from "./2026_11_27_163000_keep_pkce_sign_up_choices";
import * as addIdempotencyKeys from "./2026_11_27_170000_add_idempotency_keys";
import * as addMemberLocale from "./2026_11_27_180000_add_member_locale";
import * as addMediaJobs from "./2026_11_27_190000_add_media_jobs";
import * as addVideosToPhotos from "./2026_11_28_100000_add_videos_to_photos";
import * as addLocationToPhotos from "./2026_11_28_200000_add_location_to_photos";
import * as addPlaceToMemories from "./2026_11_28_210000_add_place_to_memories";
import * as addPushNotifications from "./2026_11_28_220000_add_push_notifications";
import * as countPlacesAndReadOldPhotoLocations from "./2026_11_28_224000_count_places_and_read_old_photo_locations";
import * as addEmailDigests from "./2026_11_28_230000_add_email_digests";
import * as addCoversAndCaptions from "./2026_11_28_231000_add_covers_and_captions";
import * as addGuideDismissedAt from "./2026_11_28_235000_add_guide_dismissed_at";
import * as addOauthClients from "./2026_11_28_236000_add_oauth_clients";
import * as addAnonymousUsers from "./2026_11_28_237000_add_anonymous_users";
import * as addBoxSettings from "./2026_11_28_238000_add_box_settings";
import * as addOauthAuthorizations from "./2026_11_28_239000_add_oauth_authorizations";
import * as addFrames from "./2026_11_28_240000_add_frames";
import * as addRateLimitCounters from "./2026_11_28_260000_add_rate_limit_counters";
import * as addMailOutbox from "./2026_11_28_270000_add_mail_outbox";
import * as countMemoriesByMonth from "./2026_11_28_280000_count_memories_by_month";
import * as indexMonthDayByDate from "./2026_11_28_281000_index_month_day_by_date";
import * as countMemoriesByTag from "./2026_11_28_282000_count_memories_by_tag";
import * as orderSqliteSearchByDay from "./2026_11_28_283000_order_sqlite_search_by_day";
import * as indexSearchWords from "./2026_11_28_284000_index_search_words";

/**
 * Every migration, in the order they run. Listed statically (not read from disk) so the
 * bundled server carries them. Names are `YYYY_MM_DD_HHMMSS_verb_noun`, dated no later than the
 * day the migration is committed, so a later one always sorts after it. Never edit one that has
 * shipped: add a new one. A rename needs its old name in `renamedMigrations` (../migrate.ts).
 */
export const migrations: Record<string, Migration> = {
  "2026_11_21_090000_create_instance_settings": createInstanceSettings,
  "2026_11_21_100000_create_auth_tables": createAuthTables,
  "2026_11_21_110000_create_memories": createMemories,
  "2026_11_21_110100_create_buckets": createBuckets,
  "2026_11_21_120000_add_memory_list_counters": addMemoryListCounters,
  "2026_11_21_130000_extend_list_generation": extendListGeneration,
  "2026_11_23_100000_move_generation_on_tag_text_and_order": moveGenerationOnTagTextAndOrder,
  "2026_11_23_110000_add_pending_registrations": addPendingRegistrations,
  "2026_11_23_120000_count_wrong_codes": countWrongCodes,
  "2026_11_24_100000_count_wrong_passwords": countWrongPasswords,
  "2026_11_24_300000_add_photo_display_copies": addPhotoDisplayCopies,
  "2026_11_24_400000_fold_search_text": foldSearchText,
  "2026_11_25_100000_add_member_roles": addMemberRoles,
  "2026_11_25_110000_add_mfa_factors": addMfaFactors,
  "2026_11_25_120000_add_passkeys": addPasskeys,
  "2026_11_26_100000_index_memory_month_day": indexMemoryMonthDay,
  "2026_11_26_120000_add_comments_and_reactions": addCommentsAndReactions,
  "2026_11_26_130000_count_responses_apart": countResponsesApart,
  "2026_11_26_140000_add_identities": addIdentities,
  "2026_11_26_150000_add_sso_providers": addSsoProviders,
  "2026_11_27_090000_index_memory_authors": indexMemoryAuthors,
  "2026_11_27_100000_lock_factor_codes": lockFactorCodes,
  "2026_11_27_150000_add_recovery_codes": addRecoveryCodes,
  "2026_11_27_163000_keep_pkce_sign_up_choices": keepPkceSignUpChoices,
  "2026_11_27_170000_add_idempotency_keys": addIdempotencyKeys,
  "2026_11_27_180000_add_member_locale": addMemberLocale,
  "2026_11_27_190000_add_media_jobs": addMediaJobs,
  "2026_11_28_100000_add_videos_to_photos": addVideosToPhotos,
  "2026_11_28_200000_add_location_to_photos": addLocationToPhotos,
  "2026_11_28_210000_add_place_to_memories": addPlaceToMemories,
  "2026_11_28_220000_add_push_notifications": addPushNotifications,
  "2026_11_28_224000_count_places_and_read_old_photo_locations": countPlacesAndReadOldPhotoLocations,
  "2026_11_28_230000_add_email_digests": addEmailDigests,
  "2026_11_28_231000_add_covers_and_captions": addCoversAndCaptions,
  "2026_11_28_235000_add_guide_dismissed_at": addGuideDismissedAt,
  "2026_11_28_236000_add_oauth_clients": addOauthClients,
  "2026_11_28_237000_add_anonymous_users": addAnonymousUsers,
  "2026_11_28_238000_add_box_settings": addBoxSettings,
  "2026_11_28_239000_add_oauth_authorizations": addOauthAuthorizations,
  "2026_11_28_240000_add_frames": addFrames,
  "2026_11_28_260000_add_rate_limit_counters": addRateLimitCounters,
  "2026_11_28_270000_add_mail_outbox": addMailOutbox,
  "2026_11_28_280000_count_memories_by_month": countMemoriesByMonth,
  "2026_11_28_281000_index_month_day_by_date": indexMonthDayByDate,
  "2026_11_28_282000_count_memories_by_tag": countMemoriesByTag,
  "2026_11_28_283000_order_sqlite_search_by_day": orderSqliteSearchByDay,
  "2026_11_28_284000_index_search_words": indexSearchWords,
};
