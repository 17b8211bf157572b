import { type Expression, type Kysely, type SqlBool, sql, type Transaction } from "kysely";
import type { Engine } from "../../db/database";
import type { Database, FrameRow, PhotoRow, UserRow } from "../../db/schema";

type Executor = Kysely<Database> | Transaction<Database>;

/** A frame as Settings lists it: its row with its pairer's display name. */
export interface FrameWithPairer extends FrameRow {
  paired_by_name: string | null;
}

/** A frame's session as the frame door reads it: live session, account, invitation and the frame, in one query. */
export interface FrameSessionRow {
  user: UserRow;
  invited: boolean;
  oauthClientId: string | null;
  scope: string | null;
  frame: FrameRow | undefined;
}

/** Which memories a frame's slides come from, as SQL can test it (the service turns a `FrameSelection` into this). */
export type SlideFilter =
  | { kind: "everything" }
  | { kind: "tags"; tagKeys: string[] }
  | { kind: "dates"; from: string | null; to: string | null }
  /** Memories dated on one of these month-days (MMDD as a number) before `before`: "On this day"'s candidates. */
  | { kind: "month-days"; monthDays: number[]; before: string };

/** Where a slides page starts: after this photo, in the slides' order. */
export interface SlideCursor {
  sortKey: string;
  position: number;
  photoId: string;
}

/** One photo or video of a memory, with what a slide shows of its memory. */
export type SlideRow = Pick<
  PhotoRow,
  | "id"
  | "memory_id"
  | "position"
  | "kind"
  | "width"
  | "height"
  | "placeholder"
  | "status"
  | "web_key"
  | "display_key"
  | "preview_key"
> & { title: string; memory_date: string | null; sort_key: string };

/** The frames table (ADR 0076), the frame door's read, and the slides' and media's queries over memories and photos. */
export class FramesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly engine: Engine,
  ) {}

  transaction<T>(work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  async insert(row: FrameRow, executor: Executor): Promise<void> {
    await executor.insertInto("frames").values(row).execute();
  }

  /**
   * Frames approved whose device never fetched its tokens within the pairing's ten minutes: they
   * will never show anything, and go.
   */
  async deleteNeverPaired(now: string, executor: Executor): Promise<void> {
    await executor
      .deleteFrom("frames")
      .where("session_id", "is", null)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom("oauth_device_codes")
              .select("oauth_device_codes.id")
              .whereRef("oauth_device_codes.frame_id", "=", "frames.id")
              .where("oauth_device_codes.expires_at", ">", now),
          ),
        ),
      )
      .execute();
  }

  /** The device fetched its tokens: the frame holds that session from now on. False when the frame is gone (or already paired). */
  async bindSession(frameId: string, sessionId: string, executor: Executor): Promise<boolean> {
    const result = await executor
      .updateTable("frames")
      .set({ session_id: sessionId })
      .where("id", "=", frameId)
      .where("session_id", "is", null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Every frame, newest first, with its pairer's name; one approved but not yet paired only while it still may be. */
  list(now: string): Promise<FrameWithPairer[]> {
    return this.selectWithPairer()
      .where((eb) =>
        eb.or([
          eb("frames.session_id", "is not", null),
          eb.exists(
            eb
              .selectFrom("oauth_device_codes")
              .select("oauth_device_codes.id")
              .whereRef("oauth_device_codes.frame_id", "=", "frames.id")
              .where("oauth_device_codes.expires_at", ">", now),
          ),
        ]),
      )
      .orderBy("frames.paired_at", "desc")
      .orderBy("frames.id", "desc")
      .execute();
  }

  find(id: string, executor: Executor = this.db): Promise<FrameWithPairer | undefined> {
    return this.selectWithPairer(executor).where("frames.id", "=", id).executeTakeFirst();
  }

  /** True when the frame exists. */
  async update(id: string, changes: Partial<Pick<FrameRow, "name" | "selection" | "display">>): Promise<boolean> {
    if (Object.keys(changes).length === 0) return (await this.find(id)) !== undefined;
    const result = await this.db.updateTable("frames").set(changes).where("id", "=", id).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Removes the frame and ends its session, in one transaction; false when there was no such frame. */
  deleteWithSession(id: string): Promise<FrameRow | undefined> {
    return this.transaction(async (trx) => {
      const frame = await trx.selectFrom("frames").selectAll().where("id", "=", id).executeTakeFirst();
      if (!frame) return undefined;
      await trx.deleteFrom("frames").where("id", "=", id).execute();
      if (frame.session_id !== null) await trx.deleteFrom("sessions").where("id", "=", frame.session_id).execute();
      return frame;
    });
  }

  /** Notes the frame asked for its slides at `at`, unless it already did after `since`. */
  async markSeen(id: string, at: string, since: string): Promise<void> {
    await this.db
      .updateTable("frames")
      .set({ last_seen_at: at })
      .where("id", "=", id)
      .where((eb) => eb.or([eb("last_seen_at", "is", null), eb("last_seen_at", "<=", since)]))
      .execute();
  }

  /** The frame door's read: the session if it is live, its account, whether it is invited, its client and scope, and its frame. */
  async findFrameSession(sessionId: string): Promise<FrameSessionRow | undefined> {
    const row = await this.db
      .selectFrom("sessions")
      .innerJoin("users", "users.id", "sessions.user_id")
      .leftJoin("invitations", "invitations.email", "users.email")
      .leftJoin("frames", "frames.session_id", "sessions.id")
      .selectAll("users")
      .select([
        "sessions.oauth_client_id as session_oauth_client_id",
        "sessions.scope as session_scope",
        "invitations.email as invited_email",
        "frames.id as frame_id",
        "frames.name as frame_name",
        "frames.selection as frame_selection",
        "frames.display as frame_display",
        "frames.paired_by as frame_paired_by",
        "frames.paired_at as frame_paired_at",
        "frames.last_seen_at as frame_last_seen_at",
      ])
      .where("sessions.id", "=", sessionId)
      .executeTakeFirst();
    if (!row) return undefined;
    const {
      session_oauth_client_id,
      session_scope,
      invited_email,
      frame_id,
      frame_name,
      frame_selection,
      frame_display,
      frame_paired_by,
      frame_paired_at,
      frame_last_seen_at,
      ...user
    } = row;
    const frame =
      frame_id === null ||
      frame_name === null ||
      frame_selection === null ||
      frame_display === null ||
      frame_paired_by === null ||
      frame_paired_at === null
        ? undefined
        : {
            id: frame_id,
            name: frame_name,
            selection: frame_selection,
            display: frame_display,
            paired_by: frame_paired_by,
            session_id: sessionId,
            paired_at: frame_paired_at,
            last_seen_at: frame_last_seen_at,
          };
    return { user, invited: invited_email !== null, oauthClientId: session_oauth_client_id, scope: session_scope, frame };
  }

  /**
   * A page of slides: the photos and videos (ready, or a video still being prepared) of the
   * memories `filter` selects, newest memory first and each memory's in its order, after `cursor`.
   * One query whatever the page's size.
   */
  slides(filter: SlideFilter, cursor: SlideCursor | undefined, limit: number): Promise<SlideRow[]> {
    let query = this.selectSlides().where(this.filterCondition(filter));
    if (cursor) {
      query = query.where((eb) =>
        eb.or([
          eb("memories.sort_key", "<", cursor.sortKey),
          eb.and([
            eb("memories.sort_key", "=", cursor.sortKey),
            eb.or([
              eb("photos.position", ">", cursor.position),
              eb.and([eb("photos.position", "=", cursor.position), eb("photos.id", ">", cursor.photoId)]),
            ]),
          ]),
        ]),
      );
    }
    return query
      .orderBy("memories.sort_key", "desc")
      .orderBy("photos.position", "asc")
      .orderBy("photos.id", "asc")
      .limit(limit)
      .execute();
  }

  /** One photo or video, if its memory is one `filter` selects. */
  slide(photoId: string, filter: SlideFilter): Promise<SlideRow | undefined> {
    return this.selectSlides().where("photos.id", "=", photoId).where(this.filterCondition(filter)).executeTakeFirst();
  }

  private selectSlides() {
    return (
      this.db
        .selectFrom("photos")
        .innerJoin("memories", "memories.id", "photos.memory_id")
        .select([
          "photos.id",
          "photos.memory_id",
          "photos.position",
          "photos.kind",
          "photos.width",
          "photos.height",
          "photos.placeholder",
          "photos.status",
          "photos.web_key",
          "photos.display_key",
          "photos.preview_key",
          "memories.title",
          "memories.memory_date",
          "memories.sort_key",
        ])
        // A failed video never plays; one being prepared shows its poster meanwhile.
        .where("photos.status", "in", ["ready", "processing"])
    );
  }

  private filterCondition(filter: SlideFilter): Expression<SqlBool> {
    switch (filter.kind) {
      case "everything":
        return sql<SqlBool>`1 = 1`;
      case "tags":
        // Any of the tags, through the tag index (one row per memory and tag).
        return sql<SqlBool>`memories.id in (select memory_tags.memory_id from memory_tags where memory_tags.tag_key in (${sql.join(filter.tagKeys)}))`;
      case "dates": {
        const conditions = [sql<SqlBool>`memories.memory_date is not null`];
        if (filter.from !== null) conditions.push(sql<SqlBool>`memories.memory_date >= ${filter.from}`);
        if (filter.to !== null) conditions.push(sql<SqlBool>`memories.memory_date <= ${filter.to}`);
        return sql<SqlBool>`(${sql.join(conditions, sql` and `)})`;
      }
      case "month-days": {
        // The expressions of the index memories_month_day, to the letter, so that it is used.
        const monthDay =
          this.engine === "postgres"
            ? sql<number>`(extract(month from memories.memory_date) * 100 + extract(day from memories.memory_date))`
            : sql<number>`(cast(substr(memories.memory_date, 6, 2) as integer) * 100 + cast(substr(memories.memory_date, 9, 2) as integer))`;
        return sql<SqlBool>`(${monthDay} in (${sql.join(filter.monthDays)}) and memories.memory_date < ${filter.before})`;
      }
    }
  }

  private selectWithPairer(executor: Executor = this.db) {
    return executor
      .selectFrom("frames")
      .leftJoin("profiles", "profiles.user_id", "frames.paired_by")
      .selectAll("frames")
      .select("profiles.display_name as paired_by_name");
  }
}
