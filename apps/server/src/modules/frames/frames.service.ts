import { randomUUID } from "node:crypto";
import {
  type Frame,
  FRAME_CLIENT_ID,
  type FrameChange,
  type FrameDisplay,
  FrameLimits,
  type FramePairing,
  type FrameSelection,
  type FrameSlide,
  type FrameSlides,
  formatUserCode,
} from "@memory-box/contract";
import type { FrameRow } from "../../db/schema";
import { AppError } from "../../errors";
import type { AuditLogRepository } from "../audit";
import type { AnswerablePairing, DeviceAuthorizationsService } from "../auth";
import { windowMonthDays, windowStart, yearsAgo } from "../memories";
import type { FramesRepository, FrameWithPairer, SlideCursor, SlideFilter, SlideRow } from "./frames.repository";

/** The member answering a pairing, as the member door let them in. */
export interface FramesCaller {
  userId: string;
  email: string;
  ip: string | null;
}

export interface FramesServiceDeps {
  frames: FramesRepository;
  /** The device grant's pairings (the auth service's): a member answers them here. */
  pairings: Pick<DeviceAuthorizationsService, "answerable" | "approve" | "deny">;
  audit: Pick<AuditLogRepository, "record">;
  /** "On this day"'s window, as the memories' screen has it. */
  onThisDayWindowDays: number;
  now?: () => Date;
}

/** How often a frame asks for its slides again (ADR 0076: a removal reaches it within a minute). */
export const frameRefreshSeconds = 30;
/** `last_seen_at` is written at most once a minute. */
const seenIntervalMs = 60_000;
const dayMs = 86_400_000;

/**
 * Paired frames (issue #36, ADR 0076): members answer a frame's pairing by its user code, name it,
 * say what it shows and how, and remove it; a frame reads its slides and the bytes of their media,
 * and nothing else. Any member manages any frame: a frame shows the shared collection on a shared
 * wall, and whoever sees it lost or stolen must be able to take it off at once.
 */
export class FramesService {
  constructor(private readonly deps: FramesServiceDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** A frame waiting with this code: 404 `frame_pairing_not_found` for an unknown, expired or answered one alike. */
  async pairing(userCode: string): Promise<FramePairing> {
    const pairing = await this.answerable(userCode);
    return { user_code: formatUserCode(pairing.userCode), expires_at: pairing.expiresAt };
  }

  /** Approves the pairing: the frame is made and the pairing bound to it in one transaction. */
  async approve(
    caller: FramesCaller,
    input: { user_code: string; name: string; selection: FrameSelection; display: FrameDisplay },
  ): Promise<Frame> {
    await this.answerable(input.user_code);
    const now = this.now();
    const row: FrameRow = {
      id: randomUUID(),
      name: input.name,
      selection: JSON.stringify(storedSelection(input.selection)),
      display: JSON.stringify(input.display),
      paired_by: caller.userId,
      session_id: null,
      paired_at: now.toISOString(),
      last_seen_at: null,
    };
    await this.deps.frames.transaction(async (trx) => {
      await this.deps.frames.deleteNeverPaired(now.toISOString(), trx);
      await this.deps.frames.insert(row, trx);
      if (!(await this.deps.pairings.approve(input.user_code, caller.userId, row.id, trx))) throw pairingNotFound();
      await this.deps.audit.record(
        {
          action: "frame.paired",
          actorId: caller.userId,
          actorEmail: caller.email,
          ip: caller.ip,
          detail: { frame_id: row.id, name: row.name },
        },
        now,
        trx,
      );
    });
    return this.get(row.id);
  }

  /** Refuses the pairing: the frame hears `access_denied`. */
  async deny(caller: FramesCaller, userCode: string): Promise<void> {
    await this.answerable(userCode);
    if (!(await this.deps.pairings.deny(userCode, caller.userId))) throw pairingNotFound();
  }

  async list(): Promise<Frame[]> {
    return (await this.deps.frames.list(this.now().toISOString())).map(present);
  }

  async change(id: string, change: FrameChange): Promise<Frame> {
    const found = await this.deps.frames.update(id, {
      ...(change.name === undefined ? {} : { name: change.name.trim() }),
      ...(change.selection === undefined ? {} : { selection: JSON.stringify(storedSelection(change.selection)) }),
      ...(change.display === undefined ? {} : { display: JSON.stringify(change.display) }),
    });
    if (!found) throw frameNotFound();
    return this.get(id);
  }

  /** Removes the frame and ends its session at once: its next request is refused. */
  async remove(caller: FramesCaller, id: string): Promise<void> {
    const removed = await this.deps.frames.deleteWithSession(id);
    if (!removed) throw frameNotFound();
    await this.deps.audit.record(
      {
        action: "frame.removed",
        actorId: caller.userId,
        actorEmail: caller.email,
        ip: caller.ip,
        detail: { frame_id: id, name: removed.name },
      },
      this.now(),
    );
  }

  /**
   * A page of the frame's slides for its calendar day `today`. A `today` that is no calendar day
   * anywhere on Earth just now is taken as the server's (UTC) day: "On this day" shows, and the
   * media route serves, the days current somewhere, not any day a frame names.
   */
  async slides(frame: FrameRow, today: string, cursor: string | undefined): Promise<FrameSlides> {
    const now = this.now();
    const day = currentDays(now).includes(today) ? today : currentDays(now)[1]!;
    const selection = JSON.parse(frame.selection) as FrameSelection;
    const after = cursor === undefined ? undefined : readCursor(cursor);
    const rows = await this.deps.frames.slides(this.filterOf(selection, [day]), after, FrameLimits.slidesPageSize + 1);
    const page = rows.slice(0, FrameLimits.slidesPageSize);
    const last = page.at(-1);
    const nextCursor = rows.length > FrameLimits.slidesPageSize && last ? writeCursor(last) : null;
    const shown = selection.kind === "on-this-day" ? page.filter((row) => this.isOnThisDay(row.memory_date, day)) : page;
    await this.deps.frames.markSeen(frame.id, now.toISOString(), new Date(now.getTime() - seenIntervalMs).toISOString());
    return {
      frame: { id: frame.id, name: frame.name, display: JSON.parse(frame.display) as FrameDisplay },
      slides: shown.map(presentSlide),
      next_cursor: nextCursor,
      refresh_seconds: frameRefreshSeconds,
    };
  }

  /**
   * The key of a photo's display copy (a video's poster), or of a video's web copy once ready, when
   * the photo is in a memory the frame shows; 404 otherwise, as if it did not exist.
   */
  async mediaKey(frame: FrameRow, photoId: string, copy: "display" | "video"): Promise<string> {
    const selection = JSON.parse(frame.selection) as FrameSelection;
    const days = currentDays(this.now());
    const row = await this.deps.frames.slide(photoId, this.filterOf(selection, days));
    const inSelection =
      row !== undefined && (selection.kind !== "on-this-day" || days.some((day) => this.isOnThisDay(row.memory_date, day)));
    if (!row || !inSelection) throw new AppError("not_found");
    if (copy === "display") return row.display_key ?? row.preview_key;
    if (row.status !== "ready" || row.web_key === null) throw new AppError("not_found");
    return row.web_key;
  }

  private async answerable(userCode: string): Promise<AnswerablePairing> {
    const pairing = await this.deps.pairings.answerable(userCode);
    // Only a frame's pairing is answered here: another client's device grant is not a frame.
    if (!pairing || pairing.clientId !== FRAME_CLIENT_ID) throw pairingNotFound();
    return pairing;
  }

  private async get(id: string): Promise<Frame> {
    const frame = await this.deps.frames.find(id);
    if (!frame) throw frameNotFound();
    return present(frame);
  }

  /** The SQL side of a selection; "On this day" over the windows of `days` (its candidates, refined by `isOnThisDay`). */
  private filterOf(selection: FrameSelection, days: string[]): SlideFilter {
    switch (selection.kind) {
      case "everything":
        return { kind: "everything" };
      case "tags":
        return { kind: "tags", tagKeys: [...new Set(selection.tags.map((tag) => tag.toLowerCase()))] };
      case "dates":
        return { kind: "dates", from: selection.from, to: selection.to };
      case "on-this-day": {
        const window = this.deps.onThisDayWindowDays;
        const monthDays = new Set(days.flatMap((day) => windowMonthDays(day, window)));
        const before = days
          .map((day) => windowStart(day, window))
          .sort()
          .at(-1)!;
        return { kind: "month-days", monthDays: [...monthDays].map((monthDay) => Number(monthDay.replace("-", ""))), before };
      }
    }
  }

  /** Whether a memory of `memoryDate` is "On this day" for `day`, as the memories' screen says it. */
  private isOnThisDay(memoryDate: string | null, day: string): boolean {
    const window = this.deps.onThisDayWindowDays;
    return memoryDate !== null && memoryDate < windowStart(day, window) && yearsAgo(memoryDate, day, window) !== undefined;
  }
}

/** The calendar days current somewhere on Earth at `now` (UTC−12 to UTC+14): yesterday, today and tomorrow in UTC. */
function currentDays(now: Date): string[] {
  return [-1, 0, 1].map((offset) => new Date(now.getTime() + offset * dayMs).toISOString().slice(0, 10));
}

/** Tags as the memories keep them: trimmed, each once whatever its case. */
function storedSelection(selection: FrameSelection): FrameSelection {
  if (selection.kind !== "tags") return selection;
  const seen = new Set<string>();
  const tags = selection.tags
    .map((tag) => tag.trim())
    .filter((tag) => !seen.has(tag.toLowerCase()) && seen.add(tag.toLowerCase()));
  return { kind: "tags", tags };
}

function present(frame: FrameWithPairer): Frame {
  return {
    id: frame.id,
    name: frame.name,
    selection: JSON.parse(frame.selection) as FrameSelection,
    display: JSON.parse(frame.display) as FrameDisplay,
    paired_by: { id: frame.paired_by, name: frame.paired_by_name ?? "" },
    paired_at: frame.paired_at,
    last_seen_at: frame.last_seen_at,
  };
}

function presentSlide(row: SlideRow): FrameSlide {
  const playable = row.kind !== "photo" && row.status === "ready" && row.web_key !== null;
  return {
    photo_id: row.id,
    memory_id: row.memory_id!,
    title: row.title,
    memory_date: row.memory_date,
    kind: row.kind,
    width: row.width,
    height: row.height,
    placeholder: row.placeholder,
    url: `/api/v1/frame/media/${row.id}`,
    video_url: playable ? `/api/v1/frame/media/${row.id}/video` : null,
  };
}

/** A page's last slide as the next page's start: its memory's sort key, its position and id. */
function writeCursor(row: SlideRow): string {
  return Buffer.from(JSON.stringify([row.sort_key, row.position ?? 0, row.id])).toString("base64url");
}

function readCursor(cursor: string): SlideCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (
      Array.isArray(value) &&
      value.length === 3 &&
      typeof value[0] === "string" &&
      Number.isInteger(value[1]) &&
      typeof value[2] === "string"
    )
      return { sortKey: value[0], position: value[1] as number, photoId: value[2] };
  } catch {
    // Refused below.
  }
  throw new AppError("validation_failed", {
    message: "cursor: must be a next_cursor this API gave",
    details: [{ path: "querystring.cursor", message: "must be a next_cursor this API gave" }],
  });
}

function pairingNotFound(): AppError {
  return new AppError("frame_pairing_not_found");
}

function frameNotFound(): AppError {
  return new AppError("frame_not_found");
}
