import type { Kysely } from "kysely";
import type { Database, OauthClientRow } from "../../../db/schema";

/** The OAuth 2.1 server's registered clients (ADR 0071). */
export class OauthClientsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** A page of clients but the built-in `hidden` one, newest first (as Supabase Auth lists them), and how many there are. */
  async page(offset: number, limit: number, hidden: string): Promise<{ rows: OauthClientRow[]; total: number }> {
    const [rows, count] = await Promise.all([
      this.db
        .selectFrom("oauth_clients")
        .selectAll()
        .where("id", "!=", hidden)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(limit)
        .offset(offset)
        .execute(),
      this.db
        .selectFrom("oauth_clients")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("id", "!=", hidden)
        .executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  findById(id: string): Promise<OauthClientRow | undefined> {
    return this.db.selectFrom("oauth_clients").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async insert(row: OauthClientRow): Promise<void> {
    await this.db.insertInto("oauth_clients").values(row).execute();
  }

  /** The changed fields of client `id`; the row after, or undefined when it is gone. */
  async update(id: string, changes: Partial<Omit<OauthClientRow, "id" | "created_at">>): Promise<OauthClientRow | undefined> {
    await this.db.updateTable("oauth_clients").set(changes).where("id", "=", id).execute();
    return this.findById(id);
  }

  /** Whether a client was removed. */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom("oauth_clients").where("id", "=", id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
