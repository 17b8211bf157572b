import {
  type DeviceNotifications,
  type DeviceNotificationsInput,
  type MemoryEvent,
  NotificationLimits,
  PushPreferences,
} from "@memory-box/contract";
import type { AddedResponse } from "../comments";
import type { PushNotificationRow, PushSubscriptionRow } from "../../db/schema";
import { afterQuietHours, localTime, minuteOf } from "./local-time";
import type { NotificationsRepository } from "./notifications.repository";
import type { PushOutcome, PushSender } from "./push-sender";
import { type ChangeTopic, changeTopics, type NotificationContent, renderMessage } from "./push-texts";

export interface NotificationsLog {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

export interface NotificationsServiceDeps {
  repository: NotificationsRepository;
  sender: PushSender;
  publicKey: string;
  /** How many memories of earlier years fall on `day` ("YYYY-MM-DD"): "On this day" only when some do. */
  onThisDayCount: (day: string) => Promise<number>;
  log: NotificationsLog;
  /** Changes by one member within this much become one notification (default the contract's window). */
  groupingWindowMs?: number;
  now?: () => Date;
}

/** A change of the collection that a partner's device may be told of. */
interface Change {
  topic: ChangeTopic;
  actorId: string;
  memoryId: string;
  /** Whose devices: everyone's but the actor's, or only this member's (the memory's author, for reactions). */
  onlyUserId: string | null;
  title: string | null;
  words: string | null;
  emoji: string | null;
}

const mergeAttempts = 5;

/** The published changes a partner is told of (a reaction only when added, to their own memory). */
const topicOf: Partial<Record<MemoryEvent["type"], ChangeTopic>> = {
  "memory.created": "memories",
  "comment.created": "comments",
  "reaction.changed": "reactions",
};

/**
 * Web Push notifications (issue #33, ADR 0059): a device's subscription and preferences, what a
 * partner's change puts in the outbox (grouped per member and device, held through quiet hours),
 * "On this day" each morning, and what a push service's answer does to a notification.
 */
export class NotificationsService {
  private readonly windowMs: number;
  /**
   * Whether any device is subscribed, as this process last saw: false skips a change's queries
   * altogether (most instances, most of the time, before anyone turns notifications on). Set by
   * each "On this day" pass (every minute) and by a subscription made here; a first subscription
   * made through another process is seen here within that minute.
   */
  private anySubscription: boolean | undefined;

  constructor(private readonly deps: NotificationsServiceDeps) {
    this.windowMs = deps.groupingWindowMs ?? NotificationLimits.groupingWindowSeconds * 1000;
  }

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  get publicKey(): string {
    return this.deps.publicKey;
  }

  async device(sessionId: string): Promise<DeviceNotifications> {
    const row = await this.deps.repository.findSubscription(sessionId);
    return row ? { subscribed: true, preferences: preferencesOf(row) } : { subscribed: false, preferences: null };
  }

  /**
   * Subscribes the caller's device, or changes what it wants. A device subscribing after its
   * "On this day" time has passed today first hears of it tomorrow.
   */
  async putDevice(userId: string, sessionId: string, input: DeviceNotificationsInput): Promise<DeviceNotifications> {
    const now = this.now();
    const preferences = PushPreferences.parse(input.preferences);
    const previous = await this.deps.repository.findSubscription(sessionId);
    const local = localTime(now, preferences.time_zone);
    const passed = local.minute >= minuteOf(preferences.on_this_day_at);
    await this.deps.repository.putSubscription({
      sessionId,
      userId,
      endpoint: input.subscription.endpoint,
      p256dh: input.subscription.keys.p256dh,
      auth: input.subscription.keys.auth,
      preferences: JSON.stringify(preferences),
      onThisDaySent: previous?.on_this_day_sent ?? (passed ? local.day : null),
      now: now.toISOString(),
    });
    this.anySubscription = true;
    return { subscribed: true, preferences };
  }

  async deleteDevice(sessionId: string): Promise<void> {
    await this.deps.repository.deleteSubscription(sessionId);
  }

  /**
   * A change published by this process (app.ts calls this beside the bus, never from the bus: every
   * process receives every bus event, only the one that made the change puts it in the outbox).
   * Returns whether anything was queued.
   */
  async noticeChange(event: MemoryEvent, response?: AddedResponse): Promise<boolean> {
    if (this.anySubscription === false || !topicOf[event.type]) return false;
    const change = await this.changeOf(event, response);
    if (!change) return false;
    const devices = (await this.deps.repository.subscriptionsFor({ exceptUserId: change.actorId, onlyUserId: change.onlyUserId }))
      .map((device) => ({ device, preferences: preferencesOf(device) }))
      .filter(({ preferences }) => preferences[change.topic]);
    if (devices.length === 0) return false;
    // The common case, a member's first change in a while: one row per device, in one statement.
    const now = this.now();
    const grouped = await this.deps.repository.groupedDevices(
      change.actorId,
      devices.map(({ device }) => device.session_id),
      new Date(now.getTime() - this.windowMs).toISOString(),
    );
    const content = JSON.stringify(withChange(emptyContent(), change, now));
    const added = await this.deps.repository.insertOpenMany(
      devices
        .filter(({ device }) => !grouped.has(device.session_id))
        .map(({ device, preferences }) => ({
          sessionId: device.session_id,
          actorId: change.actorId,
          content,
          runAfter: afterQuietHours(now, preferences.quiet_hours, preferences.time_zone).toISOString(),
        })),
      now.toISOString(),
    );
    // The others join what is gathering, one device at a time.
    for (const { device, preferences } of devices) {
      if (!added.has(device.session_id)) await this.queueFor(device, preferences, change);
    }
    return true;
  }

  /** What a published event means for notifications, or undefined when nothing. */
  private async changeOf(event: MemoryEvent, added?: AddedResponse): Promise<Change | undefined> {
    const topic = topicOf[event.type];
    if (!topic) return undefined;
    // A reaction is told only when one was added (the service says which), not taken back.
    if (topic === "reactions" && !added?.emoji) return undefined;
    const memory = await this.deps.repository.memory(event.id);
    if (!memory) return undefined;
    const change: Change = {
      topic,
      actorId: event.actor,
      memoryId: event.id,
      onlyUserId: null,
      title: memory.title,
      words: topic === "comments" ? (added?.body ?? null) : null,
      emoji: null,
    };
    if (topic === "reactions") {
      // Only a reaction given to someone's own memory.
      if (!memory.user_id || memory.user_id === event.actor) return undefined;
      change.onlyUserId = memory.user_id;
      change.emoji = added?.emoji ?? null;
    }
    return change;
  }

  /**
   * Puts a change in the device's outbox. The first change of a member in a while goes at once;
   * changes after it within the grouping window gather in one notification sent when the window
   * ends (counting the whole run, and replacing the first on the device by its tag); quiet hours
   * hold whatever is due until they end. Writers in other processes may race: the open row is
   * unique per device and member, and its content is replaced only if unchanged since read.
   */
  private async queueFor(device: PushSubscriptionRow, preferences: PushPreferences, change: Change): Promise<void> {
    const now = this.now();
    for (let attempt = 0; attempt < mergeAttempts; attempt++) {
      const open = await this.deps.repository.findOpen(device.session_id, change.actorId);
      if (open) {
        const merged = JSON.stringify(withChange(contentOf(open), change, now));
        if (await this.deps.repository.updateOpen(open.id, open.content, merged, now.toISOString())) return;
        continue;
      }
      const recent = await this.deps.repository.latestSince(
        device.session_id,
        change.actorId,
        new Date(now.getTime() - this.windowMs).toISOString(),
      );
      const base = recent ? contentOf(recent) : emptyContent();
      const due = recent ? new Date(Math.max(now.getTime(), Date.parse(recent.run_after) + this.windowMs)) : now;
      const inserted = await this.deps.repository.insert({
        sessionId: device.session_id,
        actorId: change.actorId,
        open: true,
        dedupeKey: null,
        content: JSON.stringify(withChange(base, change, now)),
        runAfter: afterQuietHours(due, preferences.quiet_hours, preferences.time_zone).toISOString(),
        now: now.toISOString(),
      });
      if (inserted) return;
    }
    this.deps.log.warn({ sessionId: device.session_id }, "a change could not join the device's notifications");
  }

  /**
   * "On this day": each device whose morning time has come, once per local day (the day is marked
   * on the subscription by one conditional update, and the row's key is the day's), only when the
   * collection has memories of this day in earlier years. Returns how many were queued. The same
   * read tells this process whether any device is subscribed at all.
   */
  async queueOnThisDay(): Promise<number> {
    const now = this.now();
    let queued = 0;
    const counts = new Map<string, number>();
    const devices = await this.deps.repository.allSubscriptions();
    this.anySubscription = devices.length > 0;
    for (const device of devices) {
      const preferences = preferencesOf(device);
      if (!preferences.on_this_day) continue;
      const local = localTime(now, preferences.time_zone);
      if (device.on_this_day_sent === local.day || local.minute < minuteOf(preferences.on_this_day_at)) continue;
      if (!(await this.deps.repository.claimOnThisDay(device.session_id, local.day))) continue;
      let count = counts.get(local.day);
      if (count === undefined) {
        count = await this.deps.onThisDayCount(local.day);
        counts.set(local.day, count);
      }
      if (count === 0) continue;
      const content: NotificationContent = { ...emptyContent(), at: now.getTime(), onThisDay: { count } };
      const inserted = await this.deps.repository.insert({
        sessionId: device.session_id,
        actorId: null,
        open: false,
        dedupeKey: `on-this-day:${device.session_id}:${local.day}`,
        content: JSON.stringify(content),
        runAfter: afterQuietHours(now, preferences.quiet_hours, preferences.time_zone).toISOString(),
        now: now.toISOString(),
      });
      if (inserted) queued += 1;
    }
    return queued;
  }

  /**
   * Sends one notification the runner took. What the push service answers decides: delivered;
   * gone (404, 410: the subscription is deleted, its notifications with it); try again; or never
   * (the reason logged, never the endpoint or its keys).
   */
  async deliver(row: PushNotificationRow): Promise<PushOutcome | { kind: "no_device" } | { kind: "turned_off" }> {
    const target = await this.deps.repository.target(row.session_id);
    if (!target) return { kind: "no_device" };
    const preferences = preferencesOf(target.subscription);
    // What the device switched off since the row was queued (held by quiet hours, say) is left out.
    const content = stillWanted(contentOf(row), preferences);
    if (!content) return { kind: "turned_off" };
    const actorName = row.actor_id ? ((await this.deps.repository.nameOf(row.actor_id)) ?? "") : "";
    const message = renderMessage(content, actorName, row.actor_id, preferences, target.locale);
    const outcome = await this.deps.sender.send(target.subscription, JSON.stringify(message), message.tag);
    if (outcome.kind === "gone") {
      await this.deps.repository.deleteSubscription(row.session_id);
      this.deps.log.info({ notification: row.id, status: outcome.status }, "push subscription gone: removed");
    } else if (outcome.kind === "rejected") {
      this.deps.log.warn({ notification: row.id, reason: outcome.reason }, "push service refused a notification: given up");
    }
    return outcome;
  }
}

function preferencesOf(row: PushSubscriptionRow): PushPreferences {
  return JSON.parse(row.preferences) as PushPreferences;
}

function contentOf(row: PushNotificationRow): NotificationContent {
  return JSON.parse(row.content) as NotificationContent;
}

/** The content without the topics the device no longer wants; undefined when nothing is left. */
function stillWanted(content: NotificationContent, preferences: PushPreferences): NotificationContent | undefined {
  if (content.onThisDay) return preferences.on_this_day ? content : undefined;
  const counts = { ...content.counts };
  for (const topic of changeTopics) if (!preferences[topic]) counts[topic] = 0;
  return changeTopics.some((topic) => counts[topic] > 0) ? { ...content, counts } : undefined;
}

function emptyContent(): NotificationContent {
  return { counts: { memories: 0, comments: 0, reactions: 0 }, memoryId: null, title: null, words: null, emoji: null, at: 0 };
}

function withChange(content: NotificationContent, change: Change, at: Date): NotificationContent {
  return {
    counts: { ...content.counts, [change.topic]: content.counts[change.topic] + 1 },
    memoryId: change.memoryId,
    title: change.title,
    words: change.words,
    emoji: change.emoji,
    at: at.getTime(),
  };
}
