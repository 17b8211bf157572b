import type { ApiError, BoxSettings } from "@memory-box/contract";
import { vi } from "vitest";

/** One request to the product API as a handler sees it. */
export interface ApiRequestInfo {
  method: string;
  path: string;
  /** Values of the route's `:name` segments. */
  params: Record<string, string>;
  headers: Headers;
  /** Parsed JSON, the FormData of an upload, or the Blob a resumable upload's PATCH sends; undefined without a body. */
  body: unknown;
}

/** A JSON value (200), a Response (any status), or a throw (network failure). May be async. */
export type ApiHandler = (request: ApiRequestInfo) => unknown;

/** An API error answer, shaped like the server's. */
export function apiError(status: number, code: string, message = code): Response {
  return Response.json({ code, message } satisfies ApiError, { status });
}

/** A deferred answer, to hold a request open (busy labels) and release it later. */
export function deferred<T = unknown>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const onThisDayPath = "/api/v1/memories/on-this-day";
const timelinePath = "/api/v1/memories/timeline";
const boxPath = "/api/v1/box";

/** `GET /api/v1/box` of a box an owner never named (ADR 0065). */
export const unsetBox: BoxSettings = { name: null, cover: null, together_since: null, updated_at: null, updated_by: null };
/** Paths the server routes before any `:id` route of the same prefix. */
const fixedPaths = new Set([onThisDayPath, timelinePath]);

/**
 * Replaces global fetch with one that answers `/api/v1/*` from `routes`, keyed "METHOD /path"
 * with `:name` segments, e.g. "GET /api/v1/memories/:id". Unmatched requests get a 404
 * `not_found`; the live-events stream stays open (silent) until aborted. Undone after each test.
 */
export function stubMemoryApi(routes: Record<string, ApiHandler>) {
  const compiled = Object.entries(routes).map(([key, handler]) => ({ ...compileRoute(key), handler }));
  /** As the server routes: a fixed path is never a `:name` segment's value. */
  const matches = (route: { method: string; regex: RegExp; names: string[] }, method: string, path: string) =>
    route.method === method && !(route.names.length > 0 && fixedPaths.has(path)) ? route.regex.exec(path) : null;

  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://localhost");
    const method = (init?.method ?? "GET").toUpperCase();
    if (url.pathname === "/api/v1/events") return neverAnswered(init?.signal);
    for (const route of compiled) {
      const match = matches(route, method, url.pathname);
      if (!match) continue;
      const params = Object.fromEntries(route.names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? "")]));
      const body = requestBody(init);
      const result = await route.handler({ method, path: url.pathname, params, headers: new Headers(init?.headers), body });
      if (result instanceof Response) return result;
      return result === undefined
        ? new Response(null, { status: 204 })
        : Response.json(result, { status: method === "POST" ? 201 : 200 });
    }
    // "On this day" has nothing unless a test says otherwise: home shows as it did before it.
    if (url.pathname === onThisDayPath) return Response.json({ date: url.searchParams.get("date"), window_days: 3, groups: [] });
    // Nor the timeline: home shows no index.
    if (url.pathname === timelinePath) return Response.json({ months: [], undated: 0 });
    // Nor the box a name, cover or date (ADR 0065): home shows as it did before it.
    if (url.pathname === boxPath && method === "GET") return Response.json(unsetBox);
    return apiError(404, "not_found", `no stub for ${method} ${url.pathname}`);
  });
  vi.stubGlobal("fetch", fetchMock);
  vi.stubGlobal("XMLHttpRequest", stubXhrOver(fetchMock));

  /** The requests made to one route, in order. */
  function calls(key: string): ApiRequestInfo[] {
    const route = compileRoute(key);
    const { method } = route;
    return fetchMock.mock.calls.flatMap(([input, init]) => {
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://localhost");
      if (!matches(route, (init?.method ?? "GET").toUpperCase(), url.pathname)) return [];
      const body = requestBody(init);
      return [{ method, path: url.pathname, params: {}, headers: new Headers(init?.headers), body }];
    });
  }

  return { fetchMock, calls };
}

/**
 * XMLHttpRequest as uploads use it (for their progress), answered by the same stubbed fetch, so
 * `calls` sees uploads too. Reports half the body sent at once and the rest when the answer comes.
 * Speaks enough for tus-js-client too: a Blob body, and the answer's headers.
 */
function stubXhrOver(fetchImpl: typeof fetch) {
  return class StubXMLHttpRequest {
    readonly upload: { onprogress: ((event: Pick<ProgressEvent, "lengthComputable" | "loaded" | "total">) => void) | null } = {
      onprogress: null,
    };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    ontimeout: (() => void) | null = null;
    onabort: (() => void) | null = null;
    status = 0;
    responseText = "";
    private method = "GET";
    private url = "";
    private readonly headers: Record<string, string> = {};
    private responseHeaders = new Headers();
    private readonly controller = new AbortController();

    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }

    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }

    getResponseHeader(name: string): string | null {
      return this.responseHeaders.get(name);
    }

    abort() {
      if (this.controller.signal.aborted) return;
      this.controller.abort();
      this.onabort?.();
    }

    send(body: FormData | Blob | null) {
      const file = body instanceof FormData ? body.get("file") : body;
      const total = file instanceof Blob ? Math.max(file.size, 2) : 2;
      this.upload.onprogress?.({ lengthComputable: true, loaded: Math.floor(total / 2), total });
      fetchImpl(this.url, { method: this.method, headers: this.headers, body, signal: this.controller.signal }).then(
        async (response) => {
          if (this.controller.signal.aborted) return;
          this.upload.onprogress?.({ lengthComputable: true, loaded: total, total });
          this.status = response.status;
          this.responseHeaders = response.headers;
          this.responseText = await response.text();
          this.onload?.();
        },
        () => {
          if (!this.controller.signal.aborted) this.onerror?.();
        },
      );
    }
  };
}

function compileRoute(key: string) {
  const [method = "GET", pattern = ""] = key.split(" ");
  const names = Array.from(pattern.matchAll(/:([a-z_]+)/gi), (match) => match[1] ?? "");
  const regex = new RegExp(`^${pattern.replace(/:[a-z_]+/gi, "([^/]+)")}$`);
  return { method, regex, names };
}

function neverAnswered(signal: AbortSignal | null | undefined): Promise<Response> {
  return new Promise((_resolve, reject) => {
    signal?.addEventListener("abort", () => reject(new DOMException("The operation was aborted.", "AbortError")));
  });
}

/** A request's body as a handler sees it: the FormData of an upload, or the parsed JSON. */
function requestBody(init: RequestInit | undefined): unknown {
  if (init?.body instanceof FormData || init?.body instanceof Blob) return init.body;
  return typeof init?.body === "string" ? (JSON.parse(init.body) as unknown) : undefined;
}
