import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { EventStreamError, openEventStream, type SseEvent } from "@/lib/sse";
import { FakeEventServer } from "@/testing/fake-event-stream";

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

  it("assembles events cut across chunks, names an event without `event:` a message, and keeps the last id", async () => {
    const { events } = open();
    await settle();

    for (const chunk of [
      "id: e1\r\nevent: memory.upd",
      "ated\r",
      '\ndata: {"id":',
      '"m2"}\r\n\r\n',
      ": ping\n\ndata: a\ndata: b\n\n",
    ]) {
      server.latest.write(chunk);
      await settle();
    }

    expect(events).toEqual([
      { type: "memory.updated", data: '{"id":"m2"}', lastEventId: "e1" },
      { type: "message", data: "a\nb", lastEventId: "e1" },
    ]);
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
