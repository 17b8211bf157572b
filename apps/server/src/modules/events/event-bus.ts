import { randomUUID } from "node:crypto";
import { MediaProgressData, mediaProgressEventType, MemoryEvent } from "@memory-box/contract";
import { type Kysely, sql } from "kysely";
import type pg from "pg";
import { loadPostgresDriver } from "../../db/database";
import { isPostgres } from "../../db/migrations/dialect";
import type { Database } from "../../db/schema";
import { InstanceSettingsRepository } from "../instance";

/**
 * Someone's access may have ended (a sign-out, a revoked invitation, a password change): every
 * open live stream checks its member again at once. Internal to the servers; never sent to clients.
 */
export interface AccessChangedEvent {
  type: "access.changed";
}

/**
 * A video's preparation moving on (ADR 0055), for the members who may see it: its uploader alone
 * while it is in no memory (`audience` their user id), every member once it is (`audience` null).
 */
export interface MediaProgressEvent {
  type: typeof mediaProgressEventType;
  data: MediaProgressData;
  audience: string | null;
}

/** What travels on the bus: changes to the collection for members' screens, and access hints for the servers. */
export type BusEvent = MemoryEvent | MediaProgressEvent | AccessChangedEvent;

/** What members' streams receive, `eventId` increasing within a process's stream (the SSE id a reconnect resumes from). */
export type DeliveredEvent = (MemoryEvent | MediaProgressEvent) & { eventId: string };

export interface EventBus {
  publish(event: BusEvent): void;
  /** Returns the unsubscribe function. */
  subscribe(listener: (event: DeliveredEvent) => void): () => void;
  /** Called on every access hint, from any process; returns the unsubscribe function. */
  onAccessChanged(listener: () => void): () => void;
  /** Events after `eventId`, or null when it is too old (or unknown) to replay. */
  since(eventId: string): DeliveredEvent[] | null;
  close(): Promise<void>;
}

const replayCapacity = 1000;

/**
 * Delivers to this process's subscribers and keeps the last events for reconnects. Event ids are
 * `{ms}-{seq}` with zero padding, so they sort as text in the order they were delivered here.
 */
class LocalDelivery {
  private readonly listeners = new Set<(event: DeliveredEvent) => void>();
  private readonly accessListeners = new Set<() => void>();
  private readonly recent: DeliveredEvent[] = [];
  private sequence = 0;

  deliver(event: BusEvent): void {
    if (event.type === "access.changed") {
      for (const listener of this.accessListeners) listener();
      return;
    }
    this.sequence += 1;
    const delivered: DeliveredEvent = {
      ...event,
      eventId: `${Date.now().toString().padStart(15, "0")}-${this.sequence.toString().padStart(9, "0")}`,
    };
    this.recent.push(delivered);
    if (this.recent.length > replayCapacity) this.recent.shift();
    for (const listener of this.listeners) listener(delivered);
  }

  subscribe(listener: (event: DeliveredEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onAccessChanged(listener: () => void): () => void {
    this.accessListeners.add(listener);
    return () => this.accessListeners.delete(listener);
  }

  /** Unknown ids (too old, or from another process's stream) mean the client must reload. */
  since(eventId: string): DeliveredEvent[] | null {
    const index = this.recent.findIndex((event) => event.eventId === eventId);
    return index === -1 ? null : this.recent.slice(index + 1);
  }
}

/** One process (SQLite): events go straight to this process's subscribers. */
export class InProcessEventBus implements EventBus {
  private readonly delivery = new LocalDelivery();

  publish(event: BusEvent): void {
    this.delivery.deliver(event);
  }

  subscribe(listener: (event: DeliveredEvent) => void): () => void {
    return this.delivery.subscribe(listener);
  }

  onAccessChanged(listener: () => void): () => void {
    return this.delivery.onAccessChanged(listener);
  }

  since(eventId: string): DeliveredEvent[] | null {
    return this.delivery.since(eventId);
  }

  async close(): Promise<void> {}
}

const channel = "memory_box_events";

/**
 * On SQLite, the instance setting another process (the CLI) changes when someone's access may have
 * ended; the server polls it (`watchAccessSignal`). Its value is only ever compared, never read.
 */
export const accessSignalSetting = "events.access_changed";

/**
 * For a process without a bus of its own (the CLI): tells the servers on the same database that
 * someone's access may have ended. On PostgreSQL a NOTIFY on the servers' channel; on SQLite a new
 * value for `accessSignalSetting`, which the server notices within its poll (ADR 0050).
 */
export async function announceAccessChanged(db: Kysely<Database>): Promise<void> {
  if (!isPostgres(db)) {
    await new InstanceSettingsRepository(db).put(accessSignalSetting, randomUUID());
    return;
  }
  const hint: AccessChangedEvent = { type: "access.changed" };
  await sql`select pg_notify(${channel}, ${JSON.stringify(hint)})`.execute(db);
}

/** How often a server on SQLite looks at `accessSignalSetting`: a revocation by the CLI ends streams within this. */
export const accessSignalPollMs = 250;

/**
 * A server on SQLite: every `intervalMs`, `read` the access signal (a prepared one-row read on the
 * server's own connection, outside Kysely's queue: a few microseconds); when it changed since the
 * last look, `onChanged`. A failed read (the database closing) is skipped. Returns the stop.
 */
export function watchAccessSignal(
  read: () => string | undefined,
  onChanged: () => void,
  intervalMs = accessSignalPollMs,
): () => void {
  const look = () => {
    try {
      return { value: read() };
    } catch {
      return undefined;
    }
  };
  let last = look()?.value;
  const timer = setInterval(() => {
    const seen = look();
    if (seen === undefined || seen.value === last) return;
    last = seen.value;
    onChanged();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Several processes on one PostgreSQL database: every publish is a NOTIFY, and every process
 * LISTENs, so a member connected to any process sees what happened on any other. A process also
 * receives its own notifications, so delivery is the same path for all.
 */
export class PostgresEventBus implements EventBus {
  private readonly delivery = new LocalDelivery();
  private closed = false;

  private constructor(
    private readonly listener: pg.Client,
    private readonly pool: pg.Pool,
    private readonly onError: (error: Error) => void,
  ) {}

  static async connect(url: string, onError: (error: Error) => void): Promise<PostgresEventBus> {
    const pg = await loadPostgresDriver();
    const listener = new pg.Client({ connectionString: url });
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    pool.on("error", onError);
    const bus = new PostgresEventBus(listener, pool, onError);
    listener.on("notification", (message) => bus.receive(message.payload));
    listener.on("error", (error) => {
      if (!bus.closed) onError(error);
    });
    await listener.connect();
    await listener.query(`listen ${channel}`);
    return bus;
  }

  /** The NOTIFY last sent: each waits for the one before, so members see events in publish order. */
  private sending: Promise<unknown> = Promise.resolve();

  publish(event: BusEvent): void {
    // One after another: two NOTIFYs on two pooled connections at once may arrive the other way round.
    this.sending = this.sending
      .then(() => this.pool.query("select pg_notify($1, $2)", [channel, JSON.stringify(event)]))
      .catch(this.onError);
  }

  subscribe(listener: (event: DeliveredEvent) => void): () => void {
    return this.delivery.subscribe(listener);
  }

  onAccessChanged(listener: () => void): () => void {
    return this.delivery.onAccessChanged(listener);
  }

  since(eventId: string): DeliveredEvent[] | null {
    return this.delivery.since(eventId);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.sending;
    await Promise.allSettled([this.listener.end(), this.pool.end()]);
  }

  /** Another writer on the channel (or an older version of this one) may send anything: only events pass. */
  private receive(payload: string | undefined): void {
    try {
      const message: unknown = JSON.parse(payload ?? "");
      if (isAccessChanged(message)) return this.delivery.deliver(message);
      const progress = readMediaProgressEvent(message);
      if (progress) return this.delivery.deliver(progress);
      const parsed = MemoryEvent.safeParse(message);
      if (parsed.success) this.delivery.deliver(parsed.data);
    } catch (error) {
      this.onError(error instanceof Error ? error : new Error(String(error)));
    }
  }
}

function readMediaProgressEvent(message: unknown): MediaProgressEvent | undefined {
  if (typeof message !== "object" || message === null || !("type" in message) || message.type !== mediaProgressEventType) {
    return undefined;
  }
  const { data, audience } = message as { data?: unknown; audience?: unknown };
  const parsed = MediaProgressData.safeParse(data);
  if (!parsed.success || (audience !== null && typeof audience !== "string")) return undefined;
  return { type: mediaProgressEventType, data: parsed.data, audience };
}

function isAccessChanged(message: unknown): message is AccessChangedEvent {
  return typeof message === "object" && message !== null && "type" in message && message.type === "access.changed";
}
