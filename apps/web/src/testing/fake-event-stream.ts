/** One request the fake event server answered: what was sent, and the stream to write to. */
export interface FakeEventConnection {
  url: string;
  headers: Headers;
  /** Writes raw `text/event-stream` text (no framing added). */
  write(text: string): void;
  /** Sends one event in the server's format (`id:`, `event:`, `data:`). */
  send(type: string, data: unknown, id?: string): void;
  /** Ends the stream from the server side, as when the session expires. */
  end(): void;
  /** The client aborted the request (stopped listening). */
  readonly aborted: boolean;
}

export type FakeEventAnswer = "stream" | Response | Error;

/**
 * A stand-in for `GET /api/v1/events`: `fetch` hands out streaming responses that the test
 * writes to. `next` decides each request's answer ("stream" by default): a stream, an HTTP
 * error Response, or an Error to throw (network failure).
 */
export class FakeEventServer {
  readonly connections: FakeEventConnection[] = [];
  /** Answers for the coming requests, in order; once empty, every request gets a stream. */
  readonly next: FakeEventAnswer[] = [];
  requests = 0;

  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    this.requests += 1;
    const answer = this.next.shift() ?? "stream";
    if (answer instanceof Error) throw answer;
    if (answer instanceof Response) return answer;
    return this.open(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, init);
  };

  /** The newest connection. */
  get latest(): FakeEventConnection {
    const connection = this.connections[this.connections.length - 1];
    if (!connection) throw new Error("no event stream has been opened");
    return connection;
  }

  private open(url: string, init: RequestInit | undefined): Response {
    const encoder = new TextEncoder();
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let closed = false;
    let aborted = false;
    const body = new ReadableStream<Uint8Array>({
      start(streamController) {
        controller = streamController;
      },
    });
    const connection: FakeEventConnection = {
      url,
      headers: new Headers(init?.headers),
      write(text) {
        if (!closed) controller.enqueue(encoder.encode(text));
      },
      send(type, data, id) {
        connection.write(`${id === undefined ? "" : `id: ${id}\n`}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
      },
      end() {
        if (closed) return;
        closed = true;
        controller.close();
      },
      get aborted() {
        return aborted;
      },
    };
    init?.signal?.addEventListener("abort", () => {
      aborted = true;
      if (closed) return;
      closed = true;
      controller.error(new DOMException("The operation was aborted.", "AbortError"));
    });
    this.connections.push(connection);
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8" } });
  }
}
