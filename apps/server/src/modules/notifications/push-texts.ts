import type { PushMessage, PushPreferences } from "@memory-box/contract";
import { serverMessages } from "@memory-box/messages/server";

/** Topics of a partner's changes that are counted in one notification. */
export const changeTopics = ["memories", "comments", "reactions"] as const;
export type ChangeTopic = (typeof changeTopics)[number];

/** What an outbox row says (JSON in `push_notifications.content`). */
export interface NotificationContent {
  /** The partner's changes gathered in this notification, per topic. */
  counts: Record<ChangeTopic, number>;
  /** The latest memory changed: where a click goes. */
  memoryId: string | null;
  /** The latest memory's title, and the latest comment's words: shown only when the device allows words. */
  title: string | null;
  words: string | null;
  /** The latest reaction's emoji. */
  emoji: string | null;
  /** When the latest change happened (ms since the epoch). */
  at: number;
  /** "On this day": how many memories of earlier years it has. */
  onThisDay?: { count: number };
}

/** Words shown on a lock screen are few. */
const maxWordsLength = 140;

function clip(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > maxWordsLength ? `${flat.slice(0, maxWordsLength - 1)}…` : flat;
}

/** The tag of a notification: a later one from the same member replaces the earlier on the device. */
export function tagOf(actorId: string | null): string {
  return actorId === null ? "on-this-day" : `from-${actorId}`;
}

/**
 * The message the service worker shows, in the recipient's language. Without `show_words` it
 * names who did what and nothing of the memory ("Ben added a memory"); a notification of several
 * kinds of change lists them ("New from Ben" — "2 memories and 1 comment").
 */
export function renderMessage(
  content: NotificationContent,
  actorName: string,
  actorId: string | null,
  preferences: PushPreferences,
  locale: string | null,
): PushMessage {
  const words = serverMessages(locale ?? "en");
  const base = { tag: tagOf(actorId), timestamp: content.at };
  if (content.onThisDay) {
    return {
      ...base,
      title: words.format("push.onThisDay.title"),
      body: words.format("push.onThisDay.body", { count: content.onThisDay.count }),
      url: "/",
    };
  }
  const url = content.memoryId ? `/memory/${content.memoryId}` : "/";
  const topics = changeTopics.filter((topic) => content.counts[topic] > 0);
  if (topics.length === 1) {
    const topic = topics[0]!;
    const count = content.counts[topic];
    const title = words.format(`push.${topic}`, { count, name: actorName });
    let body = "";
    if (count === 1 && preferences.show_words) {
      if (topic === "comments") body = clip(content.words ?? "");
      else body = clip(content.title ?? "");
    }
    if (topic === "reactions" && count === 1 && content.emoji) body = body ? `${content.emoji} ${body}` : content.emoji;
    return { ...base, title, body, url };
  }
  const list = new Intl.ListFormat(words.locale, { type: "conjunction" }).format(
    topics.map((topic) => words.format(`push.count.${topic}`, { count: content.counts[topic] })),
  );
  return { ...base, title: words.format("push.mixed", { name: actorName }), body: list, url };
}
