import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/**
 * The durable queue of media work (ADR 0054): one row per job (a video's poster, its web rendition),
 * so work survives a restart or a killed process. A running job holds a lease (`lease_owner`,
 * `lease_until`) that its runner renews while it works; a lease left to expire (the process died)
 * lets another runner take the job again. `subject_id` names the photo or video row the job is for;
 * it has no foreign key yet, as videos have no rows of their own until uploads are wired to jobs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("media_jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("subject_id", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    // queued | running | done | failed
    .addColumn("state", "text", (c) => c.notNull())
    // How many times a runner has taken the job (a lease that expired counts as one).
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    // 0..1, as the web app shows it.
    .addColumn("progress", "double precision", (c) => c.notNull().defaultTo(0))
    .addColumn("lease_owner", "text")
    .addColumn("lease_until", timestamp)
    // A queued job is not taken before this time (the backoff after a failed attempt).
    .addColumn("run_after", timestamp, (c) => c.notNull())
    .addColumn("error_code", "text")
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("updated_at", timestamp, (c) => c.notNull())
    .execute();
  // Claiming: the oldest queued job that is due, or a running one whose lease expired.
  await db.schema.createIndex("media_jobs_queued_idx").on("media_jobs").columns(["state", "run_after", "created_at"]).execute();
  await db.schema.createIndex("media_jobs_lease_idx").on("media_jobs").columns(["state", "lease_until"]).execute();
  await db.schema.createIndex("media_jobs_subject_idx").on("media_jobs").column("subject_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("media_jobs").execute();
}
