import type { Kysely } from "kysely";
import { columnTypes } from "./dialect";

/** The built-in client every frame pairs as: `FRAME_CLIENT_ID` of the contract, written out so this migration never changes. */
const frameClientId = "5b0f7d1e-2c4a-4e8b-9f36-0a1d2c3e4f50";

/**
 * Paired frames (issue #36, ADR 0076): the frames members paired (`frames`: what each shows and
 * how, who paired it, the session it holds), the pairings under way (`oauth_device_codes`, RFC 8628:
 * the device code kept only as its SHA-256, the user code a member types, ten minutes each), and
 * the one public client frames pair as, allowed the device grant and refresh only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable("frames")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    // JSON: the contract's FrameSelection and FrameDisplay.
    .addColumn("selection", "text", (c) => c.notNull())
    .addColumn("display", "text", (c) => c.notNull())
    // A frame's session is its pairer's: it goes with their account, as their sessions do.
    .addColumn("paired_by", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // Null from the approval until the frame fetches its tokens; the frame ends with its session
    // (removed from Settings, signed out with the member's devices, a reused refresh token).
    .addColumn("session_id", "text", (c) => c.unique().references("sessions.id").onDelete("cascade"))
    .addColumn("paired_at", timestamp, (c) => c.notNull())
    .addColumn("last_seen_at", timestamp)
    .execute();
  await db.schema.createIndex("frames_paired_at_idx").on("frames").columns(["paired_at", "id"]).execute();
  await db.schema
    .createTable("oauth_device_codes")
    .addColumn("id", "text", (c) => c.primaryKey())
    // SHA-256 of the device code (base64url); the code itself is never stored.
    .addColumn("device_code_hash", "text", (c) => c.notNull().unique())
    // Eight letters of USER_CODE_ALPHABET, stored without the dash.
    .addColumn("user_code", "text", (c) => c.notNull().unique())
    .addColumn("client_id", "text", (c) => c.notNull().references("oauth_clients.id").onDelete("cascade"))
    .addColumn("scope", "text", (c) => c.notNull())
    // 'pending', 'approved' or 'denied'.
    .addColumn("status", "text", (c) => c.notNull())
    // Seconds between polls; grows by five at each poll that came sooner (RFC 8628 3.5).
    .addColumn("interval_seconds", "integer", (c) => c.notNull())
    .addColumn("last_polled_at", timestamp)
    .addColumn("created_at", timestamp, (c) => c.notNull())
    .addColumn("expires_at", timestamp, (c) => c.notNull())
    // The member who answered it.
    .addColumn("answered_by", "text", (c) => c.references("users.id").onDelete("cascade"))
    // The frame the approval created; null again if the frame was removed before it paired.
    .addColumn("frame_id", "text", (c) => c.references("frames.id").onDelete("set null"))
    // When the device code was exchanged, and the session it gave: it works once, and a replay ends that session.
    .addColumn("used_at", timestamp)
    .addColumn("session_id", "text", (c) => c.references("sessions.id").onDelete("set null"))
    .execute();
  await db.schema.createIndex("oauth_device_codes_expires_idx").on("oauth_device_codes").column("expires_at").execute();
  const now = new Date().toISOString();
  await (db as Kysely<{ oauth_clients: Record<string, unknown> }>)
    .insertInto("oauth_clients")
    .values({
      id: frameClientId,
      client_name: "Memory Box frame",
      client_uri: null,
      logo_uri: null,
      redirect_uris: "[]",
      grant_types: JSON.stringify(["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"]),
      client_type: "public",
      token_endpoint_auth_method: "none",
      registration_type: "manual",
      client_secret_hash: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await (db as Kysely<{ oauth_clients: { id: string } }>).deleteFrom("oauth_clients").where("id", "=", frameClientId).execute();
  await db.schema.dropTable("oauth_device_codes").execute();
  await db.schema.dropTable("frames").execute();
}
