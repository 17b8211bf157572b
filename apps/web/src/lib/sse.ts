/** One dispatched Server-Sent Event. */
export interface SseEvent {
  /** The `event:` field; "message" when the event named none. */
  type: string;
  /** The `data:` lines joined by "\n". */
  data: string;
  /** The last `id:` seen on the stream so far (SSE ids persist across events); "" when none. */
  lastEventId: string;
}

/**
 * An incremental `text/event-stream` parser, following the WHATWG rules: lines end in CRLF, LF or
 * CR (also when a CRLF is split across chunks); `:` lines are comments (heartbeats); a field's
 * value loses one leading space; a blank line dispatches the event (none if it had no data);
 * `id` with a NUL is ignored, `retry` only with digits. An event not ended by a blank line when
 * the stream closes is dropped. Feed it decoded text with `push`.
 */
export class SseParser {
  /** Updated even by events that are never dispatched, as the standard says. */
  lastEventId = "";
  private buffer = "";
  private data: string[] = [];
  private type = "";
  private pendingId: string | undefined;
  /** The previous chunk ended in CR: a leading LF of the next chunk belongs to it. */
  private skipLeadingLf = false;

  constructor(
    private readonly onEvent: (event: SseEvent) => void,
    private readonly onRetry?: (milliseconds: number) => void,
  ) {}

  push(chunk: string): void {
    let text = chunk;
    if (this.skipLeadingLf && text.startsWith("\n")) text = text.slice(1);
    this.skipLeadingLf = false;
    this.buffer += text;

    let start = 0;
    for (;;) {
      const end = this.lineEnd(start);
      if (end === -1) break;
      const line = this.buffer.slice(start, end);
      if (this.buffer[end] === "\r") {
        if (end + 1 === this.buffer.length) {
          // The LF of a CRLF may be the next chunk's first character.
          this.skipLeadingLf = true;
          start = end + 1;
        } else {
          start = this.buffer[end + 1] === "\n" ? end + 2 : end + 1;
        }
      } else {
        start = end + 1;
      }
      this.processLine(line);
    }
    this.buffer = this.buffer.slice(start);
  }

  private lineEnd(from: number): number {
    const lf = this.buffer.indexOf("\n", from);
    const cr = this.buffer.indexOf("\r", from);
    if (lf === -1) return cr;
    if (cr === -1) return lf;
    return Math.min(lf, cr);
  }

  private processLine(line: string): void {
    if (line === "") {
      this.dispatch();
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);

    switch (field) {
      case "data":
        this.data.push(value);
        break;
      case "event":
        this.type = value;
        break;
      case "id":
        if (!value.includes("\0")) this.pendingId = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) this.onRetry?.(Number(value));
        break;
      default:
        // Unknown fields are ignored.
        break;
    }
  }

  private dispatch(): void {
    if (this.pendingId !== undefined) this.lastEventId = this.pendingId;
    const data = this.data;
    const type = this.type;
    this.pendingId = undefined;
    this.data = [];
    this.type = "";
    if (data.length === 0) return;
    this.onEvent({ type: type || "message", data: data.join("\n"), lastEventId: this.lastEventId });
  }
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
    const parser = new SseParser((event) => {
      lastEventId = event.lastEventId;
      onEvent(event);
    });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, { stream: true }));
        // An id on an event without data still moves the resume point.
        lastEventId = parser.lastEventId;
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
        await sleep(delay, signal);
      }
    }
  };
  void run();

  return () => controller.abort();
}

function sleep(milliseconds: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, milliseconds);
    signal.addEventListener("abort", done);
  });
}
