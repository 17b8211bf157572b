import type { BoxSettings, BoxSettingsChange } from "@memory-box/contract";
import { AppError } from "../../errors";
import { photoUrl } from "../photos";
import type { BoxCoverRow, BoxRepository } from "./box.repository";

/** The owner asking, as the invitation list knows them. */
export interface BoxCaller {
  userId: string;
  email: string;
}

export interface BoxServiceDeps {
  box: BoxRepository;
  /** Throws 403 `owner_only` unless the caller is an owner. */
  requireOwner: (caller: BoxCaller) => Promise<void>;
  /** Tells open screens the box changed (`box.updated`). */
  publish: (actorId: string) => void;
  now?: () => Date;
}

/** The furthest ahead a clock on Earth is of UTC (UTC+14, Kiribati): "today" somewhere until then. */
const furthestAheadMs = 14 * 3600 * 1000;

/** The latest "together since" at `now` ("YYYY-MM-DD"): today in the furthest-ahead time zone. */
export function latestTogetherSince(now: Date): string {
  return new Date(now.getTime() + furthestAheadMs).toISOString().slice(0, 10);
}

/**
 * The box's name, cover and "together since" (ADR 0065): every member reads them, owners change
 * them. The cover is a photo in one of the collection's memories (a still or a Live Photo's still,
 * not a video, nor an upload in no memory yet, which the sweep would delete); "together since" is
 * not after today, the furthest-ahead time zone's today, so a member ahead of the server's clock
 * may still choose their own today.
 */
export class BoxService {
  constructor(private readonly deps: BoxServiceDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  /** Nothing set is a box without a name, cover or date. */
  async read(): Promise<BoxSettings> {
    const row = await this.deps.box.read();
    if (!row) return { name: null, cover: null, together_since: null, updated_at: null, updated_by: null };
    return {
      name: row.name,
      cover: row.cover ? presentCover(row.cover) : null,
      together_since: row.together_since,
      updated_at: row.updated_at,
      updated_by: row.updated_by,
    };
  }

  /** 403 `owner_only` for anyone but an owner: checked before the body, so a member learns nothing of the rules. */
  async assertOwner(caller: BoxCaller): Promise<void> {
    await this.deps.requireOwner(caller);
  }

  /** Saves all three at once, or nothing: each refusal is 400 `validation_failed` naming its field. */
  async change(caller: BoxCaller, input: BoxSettingsChange): Promise<BoxSettings> {
    await this.deps.requireOwner(caller);
    const now = this.now();
    if (input.together_since !== null && input.together_since > latestTogetherSince(now)) {
      throw fieldProblem("body.together_since", "must not be after today");
    }
    await this.deps.box.transaction(async (trx) => {
      if (input.cover_photo_id !== null) {
        const photo = await this.deps.box.photo(input.cover_photo_id, trx);
        if (!photo || photo.memory_id === null || photo.kind === "video") {
          throw fieldProblem("body.cover_photo_id", "must be a photo in one of the collection's memories");
        }
      }
      await this.deps.box.save(
        {
          name: input.name,
          cover_photo_id: input.cover_photo_id,
          together_since: input.together_since,
          updated_at: now.toISOString(),
          updated_by: caller.userId,
        },
        trx,
      );
    });
    this.deps.publish(caller.userId);
    return this.read();
  }
}

/** The photo's own URLs, served only to members (bearer token or signed photo access cookie), never the original. */
function presentCover(cover: BoxCoverRow): NonNullable<BoxSettings["cover"]> {
  return {
    id: cover.id,
    url: photoUrl(cover.display_key ?? cover.preview_key),
    thumbnail_url: photoUrl(cover.thumbnail_key),
    width: cover.width,
    height: cover.height,
    placeholder: cover.placeholder,
  };
}

function fieldProblem(path: string, message: string): AppError {
  return new AppError("validation_failed", { details: [{ path, message }], message: `${path}: ${message}` });
}
