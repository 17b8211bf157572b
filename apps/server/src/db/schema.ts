/**
 * Table types for Kysely: one interface per table, named `XTable`, collected in `Database`.
 * Timestamps are ISO-8601 strings on both engines (see database.ts).
 */
import type { Insertable, Selectable } from "kysely";

export interface Database {
  instance_settings: InstanceSettingsTable;
}

/** Operator-level values that must survive restarts, such as a generated signing key. */
export interface InstanceSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}
export type InstanceSettingRow = Selectable<InstanceSettingsTable>;
export type NewInstanceSettingRow = Insertable<InstanceSettingsTable>;
