import type { MemoryPage, TagList } from "@memory-box/contract";
import { screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { FakeEventServer } from "@/testing/fake-event-stream";
import { fakeMemory } from "@/testing/memory-fixtures";
import { currentPath, renderApp } from "@/testing/render-app";
import { apiError, stubMemoryApi } from "@/testing/stub-memory-api";

const session = fakeSession();
const member = session.user.id;
const secret = fakeMemory({ title: "Our trip to Lisbon" });
const page: MemoryPage = { items: [secret], next_cursor: null, matched: 1, total: 1 };
const noTags: TagList = { tags: [] };

/** The member's copies kept for offline (ADR 0031) and the app shell's, as Cache Storage names them. */
const memberCaches = [`memory-box-api-${member}`, `memory-box-photos-${member}`, `memory-box-shared-${member}`];
const shellCache = "workbox-precache-v2-http://localhost/";

/** Cache Storage reduced to its names: what the page's sign-out deletes. */
function fakeCacheStorage(names: string[]): CacheStorage & { names: Set<string> } {
  const kept = new Set(names);
  const cache = { put: async () => {}, match: async () => undefined, keys: async () => [], delete: async () => true };
  return {
    names: kept,
    open: async (name: string) => {
      kept.add(name);
      return cache as unknown as Cache;
    },
    keys: async () => [...kept],
    delete: async (name: string) => kept.delete(name),
    has: async (name: string) => kept.has(name),
    match: async () => undefined,
  };
}

/**
 * Home, signed in, with a memory on screen and copies kept on the device; the live stream is a
 * fake server the test writes to, everything else the stubbed API.
 */
async function homeWithStream() {
  const storage = fakeCacheStorage([...memberCaches, "memory-box-member", shellCache]);
  vi.stubGlobal("caches", storage);
  const events = new FakeEventServer();
  const api = stubMemoryApi({ "GET /api/v1/memories": () => page, "GET /api/v1/tags": () => noTags });
  const apiFetch = globalThis.fetch;
  vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    return new URL(url, "http://localhost").pathname === "/api/v1/events" ? events.fetch(input, init) : apiFetch(input, init);
  });
  const client = new FakeAuthClient({ session });
  const view = renderApp("/", { client });
  expect(await screen.findByText("Our trip to Lisbon")).toBeInTheDocument();
  await waitFor(() => expect(events.connections).toHaveLength(1));
  return { ...view, storage, events, api };
}

/** Signed out on this device only (the server already ended the session), on the sign-in screen, nothing kept. */
async function expectLocked({ router, client, queryClient, storage }: Awaited<ReturnType<typeof homeWithStream>>) {
  await waitFor(() => expect(currentPath(router)).toBe("/auth"), { timeout: 4000 });
  expect(client.signOut).toHaveBeenCalledWith({ scope: "local" });
  expect(screen.queryByText("Our trip to Lisbon")).not.toBeInTheDocument();
  expect(queryClient.getQueryCache().getAll()).toEqual([]);
  await waitFor(() => expect([...storage.names]).toEqual([shellCache]));
}

describe("a session ended elsewhere", () => {
  beforeEach(() => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });

  it("takes the open app to sign-in when the live stream says the session ended, and forgets what it kept", async () => {
    const view = await homeWithStream();

    view.events.latest.send("session.ended", { code: "session_not_found" });
    view.events.latest.end();

    await expectLocked(view);
    // No request of its own was needed: only the first page and tags were asked for.
    expect(view.api.calls("GET /api/v1/memories")).toHaveLength(1);
    expect(view.events.requests).toBe(1);
  });

  it("does the same when the stream ended without a word and its reconnection is refused with 401", async () => {
    const view = await homeWithStream();

    view.events.next.push(apiError(401, "session_not_found", "Session from session_id claim in JWT does not exist"));
    view.events.latest.end();

    await expectLocked(view);
    expect(view.events.requests).toBe(2);
  });

  it("but a stream that merely dropped reconnects and keeps the member signed in", async () => {
    const view = await homeWithStream();

    view.events.latest.end();

    await waitFor(() => expect(view.events.connections).toHaveLength(2), { timeout: 4000 });
    expect(view.client.signOut).not.toHaveBeenCalled();
    expect(screen.getByText("Our trip to Lisbon")).toBeInTheDocument();
    expect(currentPath(view.router)).toBe("/");
  });
});
