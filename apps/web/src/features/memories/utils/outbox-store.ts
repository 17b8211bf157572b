import { openDB, type DBSchema } from "idb";

import type { MemoryFormValues } from "@/features/memories/utils/memory-input";

/** A photo of a memory waiting to be sent: its bytes, and once uploaded, the photo the server made of them. */
export interface QueuedPhoto {
  name: string;
  type: string;
  bytes: ArrayBuffer;
  /** A Live Photo's clip, sent to its still once the still is on the server. */
  motion?: { name: string; type: string; bytes: ArrayBuffer };
  /**
   * On the server, unattached until the memory lists it (and deleted there a day later if none
   * does); `motionAttached` once a Live Photo's clip is there too.
   */
  uploaded?: { id: string; at: number; motionAttached?: boolean };
}

/** A memory saved while offline, kept on this device until it is added (ADR 0031). */
export interface QueuedMemory {
  id: string;
  /** When it was saved; the queue is sent oldest first. */
  queuedAt: number;
  values: MemoryFormValues;
  /** In the memory's order. */
  photos: QueuedPhoto[];
  /** The memory has been sent at least once, so it may exist already although no answer came. */
  createSent?: boolean;
  /**
   * Sent with every attempt to add this memory (ADR 0043), so a retry whose first answer was lost
   * gets that answer instead of a second memory. Memories queued before keys existed get theirs
   * at their first send.
   */
  idempotencyKey?: string;
}

interface OutboxSchema extends DBSchema {
  memories: { key: string; value: QueuedMemory };
}

/**
 * One IndexedDB database per member: the page opens only the signed-in member's, so one member's
 * queue is never read, let alone sent, as another's.
 */
function openOutbox(member: string) {
  return openDB<OutboxSchema>(`memory-box-outbox-${member}`, 1, {
    upgrade(db) {
      db.createObjectStore("memories", { keyPath: "id" });
    },
  });
}

async function withOutbox<T>(member: string, work: (db: Awaited<ReturnType<typeof openOutbox>>) => Promise<T>): Promise<T> {
  const db = await openOutbox(member);
  try {
    return await work(db);
  } finally {
    db.close();
  }
}

/** The member's waiting memories, oldest first. */
export function queuedMemories(member: string): Promise<QueuedMemory[]> {
  return withOutbox(member, async (db) =>
    (await db.getAll("memories")).sort((a, b) => a.queuedAt - b.queuedAt || a.id.localeCompare(b.id)),
  );
}

/** Keeps (or updates) a waiting memory. */
export function putQueuedMemory(member: string, memory: QueuedMemory): Promise<void> {
  return withOutbox(member, async (db) => void (await db.put("memories", memory)));
}

/** Forgets a waiting memory: it was added, or the member chose to discard it. */
export function deleteQueuedMemory(member: string, id: string): Promise<void> {
  return withOutbox(member, (db) => db.delete("memories", id));
}

/** The bytes of a chosen file, as the queue keeps them (an ArrayBuffer survives IndexedDB in every browser). */
export async function queuedPhotoOf(file: File, uploaded?: QueuedPhoto["uploaded"], motion?: File): Promise<QueuedPhoto> {
  return {
    name: file.name,
    type: file.type,
    bytes: await file.arrayBuffer(),
    ...(motion ? { motion: { name: motion.name, type: motion.type, bytes: await motion.arrayBuffer() } } : {}),
    ...(uploaded ? { uploaded } : {}),
  };
}
