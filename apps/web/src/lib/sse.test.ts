import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { EventStreamError, openEventStream, SseParser, type SseEvent } from "@/lib/sse";
import { FakeEventServer } from "@/testing/fake-event-stream";

function parse(...chunks: string[]) {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const parser = new SseParser(
    (event) => events.push(event),
    (ms) => retries.push(ms),
  );
  for (const chunk of chunks) parser.push(chunk);
  return { events, retries, parser };
}

describe("SseParser", () => {
  it("reads the server's events: id, type and JSON data", () => {
    const { events } = parse('id: 000000000000001-000000001\nevent: memory.created\ndata: {"id":"m1","actor":"u1"}\n\n');

    expect(events).toEqual([
      { type: "memory.created", data: '{"id":"m1","actor":"u1"}', lastEventId: "000000000000001-000000001" },
    ]);
  });

  it("names an event without `event:` a message and joins data lines with a line feed", () => {
    const { events } = parse("data: first\ndata: second\n\n");

    expect(events).toEqual([{ type: "message", data: "first\nsecond", lastEventId: "" }]);
  });

  it("ignores comments (the heartbeats) and unknown fields", () => {
    const { events } = parse(": ping\n\nfoo: bar\n: another\nevent: resync\ndata: {}\n\n");

    expect(events).toEqual([{ type: "resync", data: "{}", lastEventId: "" }]);
  });

  it("removes only one space after the colon, and reads a field without a colon as empty", () => {
    const { events } = parse("data:  two spaces\ndata\ndata:none\n\n");

    expect(events).toEqual([{ type: "message", data: " two spaces\n\nnone", lastEventId: "" }]);
  });

  it("accepts LF, CRLF and CR line ends, also when a CRLF is split across chunks", () => {
    const { events } = parse("event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\r", "event: c\r", "\ndata: 3\r", "\n\r", "\n");

    expect(events.map(({ type, data }) => [type, data])).toEqual([
      ["a", "1"],
      ["b", "2"],
      ["c", "3"],
    ]);
  });

  it("assembles events and lines cut at any point between chunks", () => {
    const text = 'id: 7\nevent: memory.updated\ndata: {"id":"m2"}\n\n';
    for (let cut = 1; cut < text.length; cut++) {
      const { events } = parse(text.slice(0, cut), text.slice(cut));
      expect(events, `cut at ${cut}`).toEqual([{ type: "memory.updated", data: '{"id":"m2"}', lastEventId: "7" }]);
    }
  });

  it("keeps the last id for later events and updates it even for an event without data", () => {
    const { events, parser } = parse("id: 1\ndata: a\n\ndata: b\n\nid: 2\n\n");

    expect(events.map((event) => event.lastEventId)).toEqual(["1", "1"]);
    expect(parser.lastEventId).toBe("2");
  });

  it("ignores an id containing NUL", () => {
    const { events } = parse("id: 1\ndata: a\n\nid: 2\0x\ndata: b\n\n");

    expect(events.map((event) => event.lastEventId)).toEqual(["1", "1"]);
  });

  it("does not dispatch an event without data, nor one the stream never finished", () => {
    const { events } = parse("event: lonely\n\nevent: unfinished\ndata: x\n");

    expect(events).toEqual([]);
  });

  it("reports a numeric retry and ignores any other", () => {
    const { retries } = parse("retry: 3000\n\nretry: soon\n\n");

    expect(retries).toEqual([3000]);
  });
});

describe("openEventStream", () => {
  let server: FakeEventServer;
  let stop: (() => void) | undefined;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    server = new FakeEventServer();
  });

  afterEach(() => {
    stop?.();
    stop = undefined;
    vi.useRealTimers();
  });

  function open(overrides: Partial<Parameters<typeof openEventStream>[0]> = {}) {
    const events: SseEvent[] = [];
    const errors: Array<{ error: unknown; retryInMs: number }> = [];
    const opens: Array<{ reconnected: boolean; resumed: boolean }> = [];
    stop = openEventStream({
      url: "/api/v1/events",
      fetch: server.fetch,
      headers: () => ({ Authorization: "Bearer token-1" }),
      onEvent: (event) => events.push(event),
      onOpen: (info) => opens.push(info),
      onError: (error, retryInMs) => errors.push({ error, retryInMs }),
      ...overrides,
    });
    return { events, errors, opens };
  }

  /** Lets the stream's promises (fetch, reads) run without moving the clock. */
  const settle = () => vi.advanceTimersByTimeAsync(0);

  it("connects with the token and Accept header and delivers events as they arrive", async () => {
    const { events, opens } = open();
    await settle();

    expect(server.requests).toBe(1);
    expect(server.latest.headers.get("authorization")).toBe("Bearer token-1");
    expect(server.latest.headers.get("accept")).toBe("text/event-stream");
    expect(server.latest.headers.has("last-event-id")).toBe(false);
    expect(opens).toEqual([{ reconnected: false, resumed: false }]);

    server.latest.write("retry: 3000\n\n: ping\n\n");
    server.latest.send("memory.created", { id: "m1", actor: "u1" }, "e1");
    await settle();

    expect(events).toEqual([{ type: "memory.created", data: '{"id":"m1","actor":"u1"}', lastEventId: "e1" }]);
  });

  it("reconnects after a dropped stream, sending Last-Event-ID and a fresh token", async () => {
    let token = 1;
    const { opens, errors } = open({ headers: async () => ({ Authorization: `Bearer token-${token}` }) });
    await settle();
    server.latest.send("memory.updated", { id: "m1", actor: "u1" }, "e41");
    await settle();

    token = 2;
    server.latest.end();
    await settle();
    expect(errors).toHaveLength(1);
    expect(errors[0]?.retryInMs).toBe(1_000);
    expect(server.requests).toBe(1);

    await vi.advanceTimersByTimeAsync(1_000);
    expect(server.requests).toBe(2);
    expect(server.latest.headers.get("last-event-id")).toBe("e41");
    expect(server.latest.headers.get("authorization")).toBe("Bearer token-2");
    expect(opens).toEqual([
      { reconnected: false, resumed: false },
      { reconnected: true, resumed: true },
    ]);
  });

  it("backs off 1 s, 2 s, 4 s… up to 30 s while connecting fails, on network errors and HTTP errors alike", async () => {
    server.next.push(
      new TypeError("Failed to fetch"),
      new Response("", { status: 502 }),
      new TypeError("Failed to fetch"),
      Response.json({ code: "unauthorized" }, { status: 401 }),
      new TypeError("Failed to fetch"),
      new TypeError("Failed to fetch"),
      new TypeError("Failed to fetch"),
    );
    const { errors } = open();
    await settle();

    const expected = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000];
    for (const [index, delay] of expected.entries()) {
      expect(server.requests).toBe(index + 1);
      expect(errors[index]?.retryInMs).toBe(delay);
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(server.requests, `still waiting ${delay} ms`).toBe(index + 1);
      await vi.advanceTimersByTimeAsync(1);
    }
    expect(server.requests).toBe(8);
    expect(errors[1]?.error).toBeInstanceOf(EventStreamError);
    expect((errors[1]?.error as EventStreamError).status).toBe(502);
  });

  it("starts the backoff over once a stream has opened", async () => {
    server.next.push(new TypeError("Failed to fetch"), new TypeError("Failed to fetch"));
    const { errors } = open();
    await settle();
    await vi.advanceTimersByTimeAsync(1_000);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(server.connections).toHaveLength(1);

    server.latest.end();
    await settle();

    expect(errors.map((error) => error.retryInMs)).toEqual([1_000, 2_000, 1_000]);
  });

  it("does not resume after a reconnect when no event id was ever received", async () => {
    const { opens } = open();
    await settle();
    server.latest.end();
    await vi.advanceTimersByTimeAsync(1_000);

    expect(server.latest.headers.has("last-event-id")).toBe(false);
    expect(opens[1]).toEqual({ reconnected: true, resumed: false });
  });

  it("refuses a 200 answer that is not an event stream", async () => {
    server.next.push(new Response("<html>", { status: 200, headers: { "content-type": "text/html" } }));
    const { errors } = open();
    await settle();

    expect(errors[0]?.error).toBeInstanceOf(EventStreamError);
  });

  it("stops: aborts the open stream and never reconnects", async () => {
    const { errors } = open();
    await settle();
    const connection = server.latest;

    stop?.();
    await vi.advanceTimersByTimeAsync(60_000);

    expect(connection.aborted).toBe(true);
    expect(server.requests).toBe(1);
    expect(errors).toEqual([]);
  });

  it("stops during a backoff wait without another attempt", async () => {
    server.next.push(new TypeError("Failed to fetch"));
    open();
    await settle();

    stop?.();
    await vi.advanceTimersByTimeAsync(60_000);

    expect(server.requests).toBe(1);
  });
});
