import { ErrorCode, type Memory, type MemoryInput } from "@memory-box/contract";
import type { QueryClient } from "@tanstack/react-query";

import { createMemory } from "@/features/memories/api/create-memory";
import { cacheSavedMemory } from "@/features/memories/api/memory-cache";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import { attachMotion, uploadFailureReason, uploadMedia } from "@/features/memories/api/upload-photo";
import { toMemoryInput, type MemoryFormValues } from "@/features/memories/utils/memory-input";
import { announceOutboxWork, markOutboxWork } from "@/features/memories/utils/outbox-hint";
import {
  deleteQueuedMemory,
  putQueuedMemory,
  queuedMemories,
  queuedPhotoOf,
  type QueuedMemory,
  type QueuedPhoto,
} from "@/features/memories/utils/outbox-store";
import { ApiError, NetworkError } from "@/lib/api-client";
import { getAuthClient } from "@/lib/auth-client";
import { newIdempotencyKey } from "@/lib/idempotency-key";
import { onSignOut } from "@/lib/auth-context";
import { activeIntl } from "@/lib/intl";
import { notify } from "@/lib/notify";

/** Where a waiting memory stands. */
export type QueueState =
  /** Not being sent: offline, or its turn has not come. */
  | { kind: "waiting" }
  /** Its photos on their way: `done` of `total` already on the server. */
  | { kind: "uploading"; done: number; total: number }
  /** The memory itself on its way. */
  | { kind: "saving" }
  /** Refused, or the connection broke while online: sent again by "Retry" (or at the next start). */
  | { kind: "failed"; reason: string };

export interface QueueItem {
  id: string;
  title: string;
  photoCount: number;
  state: QueueState;
}

/** What the queue needs of the server and the session: the real calls, or a test's. */
export interface OutboxTransport {
  uploadPhoto: (file: File) => Promise<{ id: string }>;
  /** Makes an uploaded still a Live Photo with its clip. */
  attachMotion: (photoId: string, clip: File) => Promise<unknown>;
  /** Adds the memory; every attempt for one queued memory carries the same `idempotencyKey`. */
  createMemory: (input: MemoryInput, idempotencyKey: string) => Promise<Memory>;
  /** The member signed in now, asked before every request. */
  signedInMember: () => Promise<string | undefined>;
  isOnline: () => boolean;
  /** The memory is in the collection: lists refreshed, the spec's toasts shown. */
  onAdded: (memory: Memory, photoCount: number) => void;
}

/**
 * An upload older than this is sent again rather than listed: the server deletes a photo no
 * memory lists after a day (`PHOTO_ORPHAN_GRACE_HOURS`), and a memory may wait longer than that.
 */
const uploadKeptMs = 12 * 60 * 60 * 1000;

/** The member is no longer the one signed in: stop, keep everything, send nothing as anyone else. */
class MemberChanged extends Error {}

/**
 * One member's offline queue (ADR 0031), driven by the page, which holds the access token (the
 * service worker has none). Memories are sent oldest first, one at a time and one tab at a time
 * (a Web Lock): each memory's photos are uploaded (each recorded as it arrives, so a reload sends
 * no photo twice), then the memory is created with the queued memory's own idempotency key (the
 * same on every attempt, so a retry after a lost answer adds nothing twice; ADR 0043), then it
 * leaves the queue. Offline, it waits and
 * starts again on the browser's `online` event. Nothing leaves the queue but an added memory or
 * one the member discards.
 */
export class Outbox {
  private items: QueueItem[] = [];
  private readonly states = new Map<string, QueueState>();
  private readonly listeners = new Set<() => void>();
  private sending: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly onOnline = () => {
    this.emit();
    void this.send();
  };
  private readonly onOffline = () => this.emit();

  constructor(
    readonly member: string,
    private readonly transport: OutboxTransport,
  ) {}

  /** Loads the queue, sends what it holds, and sends again whenever the connection returns. */
  start(): void {
    window.addEventListener("online", this.onOnline);
    window.addEventListener("offline", this.onOffline);
    void this.send();
  }

  /** At sign-out (or another member signing in): nothing more is sent; the queue stays on the device. */
  stop(): void {
    this.stopped = true;
    window.removeEventListener("online", this.onOnline);
    window.removeEventListener("offline", this.onOffline);
    this.items = [];
    this.emit();
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = (): readonly QueueItem[] => this.items;

  /** Whether the browser has a network; the queue's listeners hear when that changes. */
  isOnline = (): boolean => this.transport.isOnline();

  /** Sends everything waiting, failed ones included. Resolves when this round is over. */
  send(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.sending) {
      // A round is on its way: one more follows it, so what was queued meanwhile goes too.
      this.again = true;
      return this.sending;
    }
    this.sending = this.exclusively(() => this.round()).finally(() => {
      this.sending = undefined;
      if (this.again && !this.stopped) {
        this.again = false;
        void this.send();
      }
    });
    return this.sending;
  }

  /** Takes a memory out of the queue for good, at the member's word. */
  async discard(id: string): Promise<void> {
    await deleteQueuedMemory(this.member, id);
    this.states.delete(id);
    await this.reload();
  }

  /** Re-reads the queue from the device (a memory queued in this tab or another). */
  async reload(): Promise<QueuedMemory[]> {
    const queued = this.stopped ? [] : await queuedMemories(this.member);
    if (this.stopped) return [];
    this.items = queued.map((memory) => ({
      id: memory.id,
      title: memory.values.title.trim(),
      photoCount: memory.photos.length,
      state: this.states.get(memory.id) ?? { kind: "waiting" },
    }));
    // The hint follows what the queue holds, whichever way a race between tabs left it.
    markOutboxWork(this.member, queued.length > 0);
    this.emit();
    return queued;
  }

  private async round(): Promise<void> {
    const queued = await this.reload();
    for (const memory of queued) {
      if (this.stopped || !this.transport.isOnline()) break;
      try {
        await this.sendOne(memory);
        this.states.delete(memory.id);
      } catch (error) {
        if (error instanceof MemberChanged) break;
        this.setState(memory.id, failureState(error, this.transport.isOnline()));
      }
    }
    if (!this.stopped) await this.reload();
  }

  private async sendOne(memory: QueuedMemory): Promise<void> {
    const now = Date.now();
    // Uploads the server may have deleted by now are sent again.
    const photos: QueuedPhoto[] = memory.photos.map(({ uploaded, ...photo }) =>
      uploaded && now - uploaded.at < uploadKeptMs ? { ...photo, uploaded } : photo,
    );
    for (const [index, photo] of photos.entries()) {
      const clipSent = photo.motion === undefined || photo.uploaded?.motionAttached === true;
      if (photo.uploaded && clipSent) continue;
      this.setState(memory.id, { kind: "uploading", done: index, total: photos.length });
      await this.checkMember();
      let uploaded = photo.uploaded;
      if (!uploaded) {
        const still = await this.transport.uploadPhoto(new File([photo.bytes], photo.name, { type: photo.type }));
        uploaded = { id: still.id, at: Date.now() };
        photos[index] = { ...photo, uploaded };
        await putQueuedMemory(this.member, { ...memory, photos });
      }
      // A Live Photo's clip goes to its still, recorded apart: a reload between the two sends the clip alone.
      if (photo.motion) {
        await this.checkMember();
        const { name, type, bytes } = photo.motion;
        await this.transport.attachMotion(uploaded.id, new File([bytes], name, { type }));
        photos[index] = { ...photo, uploaded: { ...uploaded, motionAttached: true } };
        await putQueuedMemory(this.member, { ...memory, photos });
      }
    }

    this.setState(memory.id, { kind: "saving" });
    await this.checkMember();
    const sentBefore = memory.createSent === true;
    // Kept before the first attempt, so every attempt sends the same one.
    const idempotencyKey = memory.idempotencyKey ?? newIdempotencyKey();
    await putQueuedMemory(this.member, { ...memory, photos, createSent: true, idempotencyKey });
    const photoIds = photos.flatMap((photo) => (photo.uploaded ? [photo.uploaded.id] : []));
    let added: Memory | undefined;
    try {
      added = await this.transport.createMemory(toMemoryInput(memory.values, photoIds), idempotencyKey);
    } catch (error) {
      if (!(sentBefore && addedBefore(error, photoIds.length > 0))) throw error;
    }
    await deleteQueuedMemory(this.member, memory.id);
    if (added) this.transport.onAdded(added, photoIds.length);
  }

  private async checkMember(): Promise<void> {
    if (this.stopped || (await this.transport.signedInMember()) !== this.member) throw new MemberChanged();
  }

  private setState(id: string, state: QueueState): void {
    this.states.set(id, state);
    this.items = this.items.map((item) => (item.id === id ? { ...item, state } : item));
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }

  /** One tab at a time sends a member's queue; where the browser has no Web Locks, this tab alone. */
  private exclusively(work: () => Promise<void>): Promise<void> {
    const locks = typeof navigator !== "undefined" ? navigator.locks : undefined;
    if (!locks) return work();
    return locks.request(`memory-box-outbox-${this.member}`, work).then(() => undefined);
  }
}

/**
 * Whether a memory sent before, whose answer never came, was added by that earlier attempt: its
 * photos now belong to a memory (queued before keys existed), or its key stands for another
 * request (its photos were uploaded again since, and only an added memory keeps a key).
 */
function addedBefore(error: unknown, withPhotos: boolean): boolean {
  if (!(error instanceof ApiError)) return false;
  return error.code === ErrorCode.idempotency_key_reused || (withPhotos && error.code === ErrorCode.photo_in_use);
}

/** How a failure leaves a memory: waiting when the connection went away, failed with the reason otherwise. */
function failureState(error: unknown, online: boolean): QueueState {
  if (error instanceof NetworkError && !online) return { kind: "waiting" };
  if (error instanceof ApiError && (error.status === 401 || error.status === 403))
    return { kind: "failed", reason: activeIntl().formatMessage({ id: "upload.sessionEnded" }) };
  if (error instanceof NetworkError) return { kind: "failed", reason: activeIntl().formatMessage({ id: "outbox.dropped" }) };
  return { kind: "failed", reason: uploadFailureReason(error) };
}

/**
 * The real server and session. The query cache comes from the screen that starts the queue (not
 * `getQueryClient`, which would split the member screens' shared code into one more file).
 */
export function pageTransport(queryClient: QueryClient): OutboxTransport {
  return {
    uploadPhoto: (file) => uploadMedia(file),
    attachMotion: (photoId, clip) => attachMotion(photoId, clip),
    createMemory,
    signedInMember: async () => (await getAuthClient().getSession()).data.session?.user.id,
    isOnline: () => navigator.onLine,
    onAdded: (memory, photoCount) => {
      void cacheSavedMemory(queryClient, memory);
      void queryClient.invalidateQueries({ queryKey: memoryKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: memoryKeys.tags() });
      void queryClient.invalidateQueries({ queryKey: memoryKeys.onThisDays() });
      const intl = activeIntl();
      if (photoCount > 0)
        notify.success(
          intl.formatMessage({ id: "outbox.photosUploaded" }),
          intl.formatMessage({ id: "outbox.photosUploadedDetail" }, { count: photoCount }),
        );
      notify.success(intl.formatMessage({ id: "outbox.memoryAdded" }), intl.formatMessage({ id: "outbox.memoryAddedDetail" }));
    },
  };
}

let current: Outbox | undefined;

/** The signed-in member's queue, started on first use; another member's is stopped first. */
export function outboxOf(member: string, transport: OutboxTransport): Outbox {
  if (current?.member !== member) {
    current?.stop();
    current = new Outbox(member, transport);
    current.start();
  }
  return current;
}

// A sign-out stops the sending; the queue stays on the device for that member (ADR 0031).
onSignOut(() => {
  current?.stop();
  current = undefined;
});

let lastQueuedAt = 0;

/**
 * A photo of a memory about to be queued: the file (with a Live Photo's clip), and the server's
 * photo when it was uploaded already, clip included.
 */
export interface PhotoToQueue {
  file: File;
  motion?: File;
  uploadedId?: string;
}

/**
 * Keeps a memory saved while offline on this device, for `member`, to be sent when the
 * connection returns; the queue on home shows it from now on.
 */
export async function queueMemory(member: string, values: MemoryFormValues, photos: readonly PhotoToQueue[]): Promise<void> {
  // Strictly increasing, so two memories saved in the same millisecond keep their order.
  const queuedAt = (lastQueuedAt = Math.max(Date.now(), lastQueuedAt + 1));
  const queuedPhotos = await Promise.all(
    photos.map(({ file, motion, uploadedId }) =>
      queuedPhotoOf(file, uploadedId ? { id: uploadedId, at: queuedAt, motionAttached: true } : undefined, motion),
    ),
  );
  // The hint first: if the page dies between the two, home still looks at the queue.
  markOutboxWork(member, true);
  await putQueuedMemory(member, {
    id: crypto.randomUUID(),
    queuedAt,
    values,
    photos: queuedPhotos,
    idempotencyKey: newIdempotencyKey(),
  });
  announceOutboxWork();
  if (current?.member === member) void current.send();
}
