import type { Migration } from "kysely";
import * as createInstanceSettings from "./2026_11_21_090000_create_instance_settings";
import * as createAuthTables from "./2026_11_21_100000_create_auth_tables";

/**
 * Every migration, in the order they run. Listed statically (not read from disk) so the
 * bundled server carries them. Names are `YYYY_MM_DD_HHMMSS_verb_noun`; never rename or edit
 * one that has shipped: add a new one.
 */
export const migrations: Record<string, Migration> = {
  "2026_11_21_090000_create_instance_settings": createInstanceSettings,
  "2026_11_21_100000_create_auth_tables": createAuthTables,
};
