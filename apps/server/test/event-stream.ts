import type { TestMember } from "./members";

/** One message of the live stream as a client reads it. */
export interface StreamedEvent {
  id: string | undefined;
  event: string;
  data: string;
}

/**
 * Reads a member's live stream (`GET /api/v1/events`) over a real connection until closed, as a
 * browser's EventSource does: every message with its id, event name and data, kept in order.
 */
export async function openStream(baseUrl: string, member: TestMember, lastEventId?: string) {
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/api/v1/events`, {
    headers: { ...member.headers, ...(lastEventId ? { "last-event-id": lastEventId } : {}) },
    signal: controller.signal,
  });
  const events: StreamedEvent[] = [];
  let ended = false;
  const reading = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let boundary: number;
        while ((boundary = buffer.indexOf("\n\n")) !== -1) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          const field = (name: string) =>
            block
              .split("\n")
              .find((line) => line.startsWith(`${name}: `))
              ?.slice(name.length + 2);
          const event = field("event");
          if (event) events.push({ id: field("id"), event, data: field("data") ?? "" });
        }
      }
    } catch {
      // aborted
    }
    ended = true;
  })();
  const waitFor = async (predicate: (event: StreamedEvent) => boolean, timeoutMs = 5000) => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const found = events.find(predicate);
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no matching event; got ${JSON.stringify(events)}`);
  };
  return {
    response,
    events,
    waitFor,
    hasEnded: () => ended,
    close: async () => {
      controller.abort();
      await reading;
    },
  };
}
