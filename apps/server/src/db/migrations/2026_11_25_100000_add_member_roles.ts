import { type Kysely, sql } from "kysely";

/**
 * Owners manage who is in (ADR 0021). The role belongs to the invitation: an owner can be named
 * before they sign up (`npm run invite -- --owner`), and revoking the invitation ends the role with
 * the access. An instance that already has members gets its first one to join as owner, so no
 * collection is left without someone who can invite.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("invitations")
    .addColumn("role", "text", (c) =>
      c
        .notNull()
        .defaultTo("member")
        .check(sql`role in ('owner', 'member')`),
    )
    .execute();
  await sql`
    update invitations set role = 'owner'
    where email = (select email from invitations where used_at is not null order by used_at, email limit 1)
  `.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("invitations").dropColumn("role").execute();
}
