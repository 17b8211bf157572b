import { randomUUID } from "node:crypto";
import { MediaProgressData, mediaProgressEventType, MemoryEvent, resyncEventType } from "@memory-box/contract";
import { type Kysely, sql } from "kysely";
import type pg from "pg";
import { connectTimeoutMs, loadPostgresDriver } from "../../db/database";
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
  /**
   * Called when events may have been lost (the bus was cut from the database for a while): each
   * stream tells its client to reload (`resync`). Returns the unsubscribe function.
   */
  onResync(listener: () => void): () => void;
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
  private readonly resyncListeners = new Set<() => void>();
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

  onResync(listener: () => void): () => void {
    this.resyncListeners.add(listener);
    return () => this.resyncListeners.delete(listener);
  }

  /**
   * Events may have been lost: every stream's client reloads, and so does one that reconnects
   * with an id from before (the replay no longer knows it).
   */
  resync(): void {
    this.recent.length = 0;
    for (const listener of this.resyncListeners) listener();
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

  onResync(listener: () => void): () => void {
    return this.delivery.onResync(listener);
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

export interface PostgresEventBusLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface PostgresEventBusOptions {
  /** The wait before the `attempt`-th try to listen again after the connection was lost. */
  reconnectMs?: (attempt: number) => number;
}

/** 100 ms doubling up to 1 s: the listener is back within a second of the database, and an outage costs a try a second. */
export function defaultReconnectMs(attempt: number): number {
  return Math.min(100 * 2 ** Math.max(0, attempt - 1), 1_000);
}

/** How often an owed `resync` hint is tried again while the database does not answer. */
const resyncRetryMs = 2_000;

/** What a process NOTIFYs when an event it published may not have gone out: every process's streams reload. */
const resyncHint = { type: resyncEventType } as const;

/**
 * Several processes on one PostgreSQL database: every publish is a NOTIFY, and every process
 * LISTENs, so a member connected to any process sees what happened on any other. A process also
 * receives its own notifications, so delivery is the same path for all.
 *
 * The listening connection heals (issue #37): when PostgreSQL restarts or the connection is cut,
 * a new one listens again after a backoff (`defaultReconnectMs`). What was notified meanwhile is
 * lost, so once it listens again every stream here is told to reload (`resync`) and every member
 * is checked again (an access may have ended meanwhile). An event whose NOTIFY failed is not
 * sent again (later ones may have gone out before it); a `resync` hint is, until it goes out.
 */
export class PostgresEventBus implements EventBus {
  private readonly delivery = new LocalDelivery();
  private closed = false;
  /** The connection that listens, or undefined between a loss and the next try. */
  private listener: pg.Client | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectAttempts = 0;
  /** A NOTIFY failed: a `resync` hint is owed to every process. */
  private owesResync = false;
  private readonly reconnectMs: (attempt: number) => number;

  private constructor(
    private readonly driver: typeof pg,
    private readonly url: string,
    private readonly pool: pg.Pool,
    private readonly log: PostgresEventBusLog,
    options: PostgresEventBusOptions,
  ) {
    this.reconnectMs = options.reconnectMs ?? defaultReconnectMs;
  }

  static async connect(url: string, log: PostgresEventBusLog, options: PostgresEventBusOptions = {}): Promise<PostgresEventBus> {
    const driver = await loadPostgresDriver();
    const pool = new driver.Pool({ connectionString: url, max: 2, connectionTimeoutMillis: connectTimeoutMs, keepAlive: true });
    pool.on("error", (error) => log.warn({ err: error }, "event bus connection lost"));
    // As the main pool's (database.ts): a connection cut while checked out must not crash the process.
    pool.on("connect", (client) => client.on("error", () => {}));
    const bus = new PostgresEventBus(driver, url, pool, log, options);
    try {
      await bus.listen();
    } catch (error) {
      await bus.close();
      throw error;
    }
    return bus;
  }

  /** Opens a connection that LISTENs on the channel; throws (and drops it) when that fails. */
  private async listen(): Promise<void> {
    const client = new this.driver.Client({
      connectionString: this.url,
      connectionTimeoutMillis: connectTimeoutMs,
      keepAlive: true,
    });
    this.listener = client;
    client.on("notification", (message) => this.receive(message.payload));
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${channel}`);
    } catch (error) {
      this.lost(client);
      throw error;
    }
  }

  /** The listening connection failed or ended: drop it and try again after the backoff. */
  private lost(client: pg.Client, error?: Error): void {
    if (this.listener !== client) return;
    this.listener = undefined;
    client.end().catch(() => {});
    if (this.closed) return;
    if (error && this.reconnectAttempts === 0)
      this.log.warn({ err: error }, "event bus connection lost; listening again shortly");
    this.reconnectAttempts += 1;
    this.reconnectTimer = setTimeout(() => void this.reconnect(), this.reconnectMs(this.reconnectAttempts));
    this.reconnectTimer.unref();
  }

  private async reconnect(): Promise<void> {
    this.reconnectTimer = undefined;
    if (this.closed) return;
    try {
      await this.listen();
    } catch {
      // `listen` dropped the connection, and the next try is set.
      return;
    }
    if (this.closed) return;
    this.log.info({ attempts: this.reconnectAttempts }, "event bus listening again");
    this.reconnectAttempts = 0;
    // Whatever was notified while nobody listened here is lost: streams reload, members are checked again.
    this.delivery.resync();
    this.delivery.deliver({ type: "access.changed" });
    if (this.owesResync) this.publishResync();
  }

  /** The NOTIFY last sent: each waits for the one before, so members see events in publish order. */
  private sending: Promise<unknown> = Promise.resolve();

  publish(event: BusEvent): void {
    this.notify(event).catch((error: unknown) => {
      // The event is lost for every process's streams: once the database answers, they all reload.
      if (!this.owesResync) this.log.warn({ err: error }, "an event could not be sent; streams will reload");
      this.owesResync = true;
      this.publishResyncLater();
    });
  }

  /** Sends `message` after the NOTIFYs before it (two at once on two connections may arrive the other way round). */
  private notify(message: BusEvent | typeof resyncHint): Promise<unknown> {
    const sent = this.sending.then(() => this.pool.query("select pg_notify($1, $2)", [channel, JSON.stringify(message)]));
    this.sending = sent.catch(() => {});
    return sent;
  }

  private resyncTimer: NodeJS.Timeout | undefined;

  /** Tries the owed `resync` hint again after the backoff (the listener's return tries it at once). */
  private publishResyncLater(): void {
    if (this.closed || this.resyncTimer) return;
    this.resyncTimer = setTimeout(() => {
      this.resyncTimer = undefined;
      this.publishResync();
    }, resyncRetryMs);
    this.resyncTimer.unref();
  }

  private publishResync(): void {
    if (this.closed || !this.owesResync) return;
    this.notify(resyncHint).then(
      () => {
        this.owesResync = false;
      },
      () => this.publishResyncLater(),
    );
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

  onResync(listener: () => void): () => void {
    return this.delivery.onResync(listener);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    clearTimeout(this.resyncTimer);
    await this.sending;
    const listener = this.listener;
    this.listener = undefined;
    await Promise.allSettled([listener?.end(), this.pool.end()]);
  }

  /** Another writer on the channel (or an older version of this one) may send anything: only events pass. */
  private receive(payload: string | undefined): void {
    try {
      const message: unknown = JSON.parse(payload ?? "");
      if (isAccessChanged(message)) return this.delivery.deliver(message);
      if (isResync(message)) return this.delivery.resync();
      const progress = readMediaProgressEvent(message);
      if (progress) return this.delivery.deliver(progress);
      const parsed = MemoryEvent.safeParse(message);
      if (parsed.success) this.delivery.deliver(parsed.data);
    } catch (error) {
      this.log.warn({ err: error }, "an unreadable event on the bus");
    }
  }
}

function isResync(message: unknown): boolean {
  return typeof message === "object" && message !== null && "type" in message && message.type === resyncEventType;
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
