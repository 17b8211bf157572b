import type { BoxSettings, Memory, MemoryPage, MemoryTimeline, OnThisDay, TagList } from "@memory-box/contract";
import { vi } from "vitest";

import { FakeEventServer } from "@/testing/fake-event-stream";

/** Handles one request instead of the fake's own logic: a Response, or undefined to fall through. */
export type RouteOverride = (url: URL, init: RequestInit | undefined) => Response | undefined | Promise<Response | undefined>;

/**
 * The product API's list, tags, delete and live events over an in-memory collection, for screen
 * tests. It behaves like the server: `q` matches title, description or tags ignoring case; each `tag`
 * is an exact tag ignoring case, all of them required; `from` starts at a month's (or the undated) memories, and the
 * timeline counts each month's; pages are chained by an opaque `next_cursor`; `matched` and
 * `total` count the filtered and whole collection; tags are counted, most used first. The
 * `memories` array is taken to be in the API's order already.
 */
export class FakeMemoryBackend {
  memories: Memory[];
  pageSize = 30;
  readonly events = new FakeEventServer();
  /** What "On this day" answers (whatever the date asked): no group unless a test sets some. */
  onThisDayGroups: OnThisDay["groups"] = [];
  /** What `GET /api/v1/box` answers: nothing set unless a test sets something (ADR 0065). */
  box: BoxSettings = { name: null, cover: null, together_since: null, updated_at: null, updated_by: null };
  /** Keyed "METHOD /api/v1/path" (no query); consulted before the built-in behaviour. */
  readonly overrides = new Map<string, RouteOverride>();

  readonly fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://localhost");
    const method = (init?.method ?? "GET").toUpperCase();
    if (url.pathname === "/api/v1/events") return this.events.fetch(input, init);

    const override =
      this.overrides.get(`${method} ${url.pathname}`) ?? this.overrides.get(`${method} ${url.pathname.replace(/[^/]+$/, ":id")}`);
    const overridden = await override?.(url, init);
    if (overridden) return overridden;

    if (method === "GET" && url.pathname === "/api/v1/memories") return Response.json(this.list(url.searchParams));
    if (method === "GET" && url.pathname === "/api/v1/memories/timeline") {
      return Response.json(this.timeline(url.searchParams));
    }
    if (method === "GET" && url.pathname === "/api/v1/memories/on-this-day") {
      return Response.json(this.onThisDay(url.searchParams.get("date") ?? ""));
    }
    if (method === "GET" && url.pathname === "/api/v1/tags") return Response.json(this.tags());
    if (method === "GET" && url.pathname === "/api/v1/box") return Response.json(this.box);
    const id = /^\/api\/v1\/memories\/([^/]+)$/.exec(url.pathname)?.[1];
    if (method === "DELETE" && id !== undefined) {
      const before = this.memories.length;
      this.memories = this.memories.filter((memory) => memory.id !== decodeURIComponent(id));
      return this.memories.length < before ? new Response(null, { status: 204 }) : notFound();
    }
    return notFound();
  });

  constructor(memories: Memory[] = []) {
    this.memories = memories;
  }

  /** Makes this backend the global `fetch` for the current test. */
  install(): this {
    vi.stubGlobal("fetch", this.fetch);
    return this;
  }

  /** The URLs requested with `method` at `pathname`, in order. */
  requests(method: string, pathname: string): URL[] {
    return this.fetch.mock.calls.flatMap(([input, init]) => {
      const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url, "http://localhost");
      return (init?.method ?? "GET").toUpperCase() === method && url.pathname === pathname ? [url] : [];
    });
  }

  /** The list requests' query parameters, e.g. `{ q: "lis" }`, in order. */
  listQueries(): Array<Record<string, string>> {
    return this.requests("GET", "/api/v1/memories").map((url) => Object.fromEntries(url.searchParams));
  }

  list(params: URLSearchParams): MemoryPage {
    const matching = this.matching(params);
    const cursor = params.get("cursor");
    const from = params.get("from");
    const offset = cursor ? Number(cursor.replace(/^after-/, "")) : from ? startOf(matching, from) : 0;
    const limit = Number(params.get("limit") ?? this.pageSize);
    const items = matching.slice(offset, offset + limit);
    const end = offset + items.length;
    return {
      items,
      next_cursor: end < matching.length ? `after-${end}` : null,
      matched: matching.length,
      total: this.memories.length,
    };
  }

  timeline(params: URLSearchParams): MemoryTimeline {
    const counts = new Map<string, number>();
    let undated = 0;
    for (const { memory_date } of this.matching(params)) {
      if (memory_date) counts.set(memory_date.slice(0, 7), (counts.get(memory_date.slice(0, 7)) ?? 0) + 1);
      else undated += 1;
    }
    const months = Array.from(counts, ([month, count]) => ({ month, count })).sort((a, b) => b.month.localeCompare(a.month));
    return { months, undated };
  }

  private matching(params: URLSearchParams): Memory[] {
    const q = params.get("q")?.toLowerCase() ?? "";
    const chosen = params.getAll("tag").map((tag) => tag.toLowerCase());
    return this.memories.filter((memory) => {
      const tags = memory.tags ?? [];
      if (!chosen.every((tag) => tags.some((candidate) => candidate.toLowerCase() === tag))) return false;
      if (!q) return true;
      return [memory.title, memory.content ?? "", ...tags].some((text) => text.toLowerCase().includes(q));
    });
  }

  onThisDay(date: string): OnThisDay {
    return { date, window_days: 3, groups: this.onThisDayGroups };
  }

  tags(): TagList {
    const counts = new Map<string, number>();
    for (const memory of this.memories) for (const tag of memory.tags ?? []) counts.set(tag, (counts.get(tag) ?? 0) + 1);
    const tags = Array.from(counts, ([tag, count]) => ({ tag, count })).sort(
      (a, b) => b.count - a.count || a.tag.localeCompare(b.tag),
    );
    return { tags };
  }
}

/** Where `from` starts in `memories` (API order): the month's newest memory or the first older one; the first undated one. */
function startOf(memories: Memory[], from: string): number {
  const index = memories.findIndex(({ memory_date }) =>
    from === "undated" ? !memory_date : memory_date != null && memory_date.slice(0, 7) <= from,
  );
  return index === -1 ? memories.length : index;
}

function notFound(): Response {
  return Response.json({ code: "not_found", message: "Not found" }, { status: 404 });
}
