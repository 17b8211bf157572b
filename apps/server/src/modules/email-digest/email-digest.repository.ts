import type { Kysely } from "kysely";
import type { Database, EmailDigestRow } from "../../db/schema";

/** A member whose digest is on, with what the mail needs: address and language. */
export interface DigestRecipient {
  user_id: string;
  frequency: "daily" | "weekly";
  time_zone: string;
  period: string | null;
  claimed_until: string | null;
  retry_after: string | null;
  attempts: number;
  email: string;
  locale: string | null;
}

/** A partner's memory as a digest lists it: no words beyond the title, no photos. */
export interface DigestMemory {
  id: string;
  title: string;
  memory_date: string | null;
  created_at: string;
  author_id: string;
}

export interface DigestAuthor {
  author_id: string;
  name: string | null;
  email: string | null;
  count: number;
}

/** The `email_digests` table (ADR 0060), and the reads a digest makes of members and memories. */
export class EmailDigestRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(userId: string): Promise<EmailDigestRow | undefined> {
    return this.db.selectFrom("email_digests").selectAll().where("user_id", "=", userId).executeTakeFirst();
  }

  /** Writes a member's choice; `since` and `period` are given when the digest is switched on, kept otherwise. */
  async save(
    userId: string,
    choice: { frequency: EmailDigestRow["frequency"]; timeZone: string },
    now: string,
    start: { since: string; period: string | null } | undefined,
  ): Promise<void> {
    const fields = { frequency: choice.frequency, time_zone: choice.timeZone, updated_at: now };
    await this.db
      .insertInto("email_digests")
      .values({ user_id: userId, ...fields, since: start?.since ?? now, period: start?.period ?? null, created_at: now })
      .onConflict((conflict) =>
        conflict.column("user_id").doUpdateSet(start ? { ...fields, since: start.since, period: start.period } : fields),
      )
      .execute();
  }

  /** Turns a member's digest off (one-click unsubscribe); false when they had none on. */
  async turnOff(userId: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable("email_digests")
      .set({ frequency: "off", updated_at: now })
      .where("user_id", "=", userId)
      .where("frequency", "!=", "off")
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Members whose digest is on: still members (their address invited and the invitation used)
   * and not banned. A couple's journal has a handful: the periods are worked out in code.
   */
  recipients(now: string): Promise<DigestRecipient[]> {
    return this.db
      .selectFrom("email_digests")
      .innerJoin("users", "users.id", "email_digests.user_id")
      .innerJoin("invitations", "invitations.email", "users.email")
      .where("email_digests.frequency", "!=", "off")
      .where("invitations.used_at", "is not", null)
      .where((eb) => eb.or([eb("users.banned_until", "is", null), eb("users.banned_until", "<=", now)]))
      .select([
        "email_digests.user_id",
        "email_digests.time_zone",
        "email_digests.period",
        "email_digests.claimed_until",
        "email_digests.retry_after",
        "email_digests.attempts",
        "users.email",
        "users.locale",
      ])
      .select((eb) => eb.ref("email_digests.frequency").$castTo<"daily" | "weekly">().as("frequency"))
      .orderBy("email_digests.user_id")
      .execute();
  }

  /**
   * Claims `period` for `owner` until `leaseUntil`, if the row is still as read (`seen`: same
   * schedule, same last period), no live claim holds it and no backoff is pending: one statement,
   * so of several processes claiming at once exactly one updates the row. Returns what the digest
   * covers from (`since`), or undefined when another took it or it changed.
   */
  async claim(
    seen: Pick<DigestRecipient, "user_id" | "frequency" | "time_zone" | "period">,
    period: string,
    owner: string,
    now: string,
    leaseUntil: string,
  ): Promise<{ since: string } | undefined> {
    return this.db
      .updateTable("email_digests")
      .set({ claimed_by: owner, claimed_until: leaseUntil, updated_at: now })
      .where("user_id", "=", seen.user_id)
      .where("frequency", "=", seen.frequency)
      .where("time_zone", "=", seen.time_zone)
      .where((eb) => (seen.period === null ? eb("period", "is", null) : eb("period", "=", seen.period)))
      .where((eb) => eb.or([eb("period", "is", null), eb("period", "<", period)]))
      .where((eb) => eb.or([eb("claimed_until", "is", null), eb("claimed_until", "<", now)]))
      .where((eb) => eb.or([eb("retry_after", "is", null), eb("retry_after", "<=", now)]))
      .returning("since")
      .executeTakeFirst();
  }

  /** Marks `period` done for the claim `owner` holds; the next digest covers what comes after `until`. */
  async complete(userId: string, owner: string, period: string, until: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable("email_digests")
      .set({ period, since: until, claimed_by: null, claimed_until: null, attempts: 0, retry_after: null, updated_at: now })
      .where("user_id", "=", userId)
      .where("claimed_by", "=", owner)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Gives a claim back after a failed send: tried again, by whichever process, from `retryAfter`. */
  async fail(userId: string, owner: string, retryAfter: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable("email_digests")
      .set((eb) => ({
        claimed_by: null,
        claimed_until: null,
        attempts: eb("attempts", "+", 1),
        retry_after: retryAfter,
        updated_at: now,
      }))
      .where("user_id", "=", userId)
      .where("claimed_by", "=", owner)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * What other members added in (`since`, `until`]: each author with their count, and the first
   * `limit` memories oldest first. Memories of deleted accounts (no author) are nobody's news.
   */
  async partnersAdditions(
    userId: string,
    since: string,
    until: string,
    limit: number,
  ): Promise<{ authors: DigestAuthor[]; memories: DigestMemory[] }> {
    const added = this.db
      .selectFrom("memories")
      .where("memories.user_id", "is not", null)
      .where("memories.user_id", "!=", userId)
      .where("memories.created_at", ">", since)
      .where("memories.created_at", "<=", until);
    const authors = await added
      .leftJoin("profiles", "profiles.user_id", "memories.user_id")
      .leftJoin("users", "users.id", "memories.user_id")
      .select((eb) => [
        eb.ref("memories.user_id").$notNull().as("author_id"),
        eb.fn.max("profiles.display_name").as("name"),
        eb.fn.max("users.email").as("email"),
        eb.fn.countAll<number>().as("count"),
      ])
      .groupBy("memories.user_id")
      .orderBy("memories.user_id")
      .execute();
    if (authors.length === 0) return { authors: [], memories: [] };
    const memories = await added
      .select(["memories.id", "memories.title", "memories.memory_date", "memories.created_at"])
      .select((eb) => eb.ref("memories.user_id").$notNull().as("author_id"))
      .orderBy("memories.created_at")
      .orderBy("memories.id")
      .limit(limit)
      .execute();
    return { authors: authors.map((author) => ({ ...author, count: Number(author.count) })), memories };
  }
}
