import { createParser } from "eventsource-parser";

import { pause } from "@/lib/pause";

/** One dispatched Server-Sent Event. */
export interface SseEvent {
  /** The `event:` field; "message" when the event named none. */
  type: string;
  /** The `data:` lines joined by "\n". */
  data: string;
  /** The event's `id:`, or the last one an earlier event carried (SSE ids persist); "" when none. */
  lastEventId: string;
}

export interface EventStreamOptions {
  url: string;
  /** Called before every (re)connection, so each attempt carries a fresh access token. */
  headers?: () => Promise<Record<string, string>> | Record<string, string>;
  onEvent: (event: SseEvent) => void;
  /**
   * The stream is open (HTTP 200). `reconnected`: not the first connection; `resumed`: the
   * server was sent a Last-Event-ID and replays what was missed (else a reconnect may have
   * missed changes and the caller should reload).
   */
  onOpen?: (info: { reconnected: boolean; resumed: boolean }) => void;
  /** A failed attempt or a dropped stream; a reconnection follows after `retryInMs`. */
  onError?: (error: unknown, retryInMs: number) => void;
  /** First reconnection delay, doubled per failed attempt up to `maxDelayMs`; reset once a stream opens. */
  minDelayMs?: number;
  maxDelayMs?: number;
  /** For tests; the global `fetch` by default. */
  fetch?: typeof fetch;
}

/** The HTTP status of a refused event stream, or a body that is not `text/event-stream`. */
export class EventStreamError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "EventStreamError";
  }
}

/**
 * Follows a Server-Sent Events stream over `fetch` (unlike EventSource it can send an
 * Authorization header) and keeps it up: when the request fails or the stream ends, it reconnects
 * after 1 s, 2 s, 4 s… up to 30 s, sending `Last-Event-ID` so the server can replay what was
 * missed. Returns `stop`, which aborts the stream and any pending reconnection.
 */
export function openEventStream(options: EventStreamOptions): () => void {
  const { url, headers, onEvent, onOpen, onError, minDelayMs = 1_000, maxDelayMs = 30_000 } = options;
  const doFetch = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const controller = new AbortController();
  const { signal } = controller;
  let lastEventId = "";
  let opened = false;
  let failures = 0;

  const connect = async (): Promise<void> => {
    const requestHeaders: Record<string, string> = { Accept: "text/event-stream", ...(await headers?.()) };
    if (lastEventId !== "") requestHeaders["Last-Event-ID"] = lastEventId;
    const response = await doFetch(url, { headers: requestHeaders, signal, cache: "no-store" });
    const contentType = response.headers.get("content-type") ?? "";
    if (!response.ok || !response.body || !contentType.startsWith("text/event-stream")) {
      await response.body?.cancel().catch(() => {});
      throw new EventStreamError(
        response.status,
        `Event stream refused with HTTP ${response.status}${response.ok ? ` (${contentType || "no content type"})` : ""}`,
      );
    }

    onOpen?.({ reconnected: opened, resumed: lastEventId !== "" });
    opened = true;
    failures = 0;
    const parser = createParser({
      onEvent: (message) => {
        // An event without an id keeps the one before it (SSE ids persist across events).
        if (message.id !== undefined) lastEventId = message.id;
        onEvent({ type: message.event ?? "message", data: message.data, lastEventId });
      },
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    } finally {
      reader.releaseLock();
    }
    throw new EventStreamError(response.status, "Event stream ended");
  };

  const run = async () => {
    while (!signal.aborted) {
      try {
        await connect();
      } catch (error) {
        if (signal.aborted) return;
        const delay = Math.min(maxDelayMs, minDelayMs * 2 ** failures);
        failures += 1;
        onError?.(error, delay);
        await pause(delay, signal);
      }
    }
  };
  void run();

  return () => controller.abort();
}
