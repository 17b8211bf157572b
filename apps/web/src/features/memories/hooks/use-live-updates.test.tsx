import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, renderHook, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { deleteMemoryMutationKey } from "@/features/memories/api/delete-memory";
import { cacheSavedMemory } from "@/features/memories/api/memory-cache";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import {
  isMemoryEventType,
  MediaProgressData,
  MemoryEventData,
  MemoryEventType,
  memoryEventTypes,
  readMediaProgressData,
  readMemoryEventData,
  resyncEventType,
} from "@memory-box/contract";
import { applyLiveEvent, useLiveUpdates } from "@/features/memories/hooks/use-live-updates";
import { clearMediaProgress, mediaProgressOf } from "@/features/memories/utils/media-progress";
import { setAuthClient } from "@/lib/auth-client";
import { AuthContext, type AuthContextValue } from "@/lib/auth-context";
import { requestEarly, resetFirstScreen, takeEarlyAnswer } from "@/lib/first-screen";
import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { FakeEventServer } from "@/testing/fake-event-stream";
import { fakeMemory, fakePhoto } from "@/testing/memory-fixtures";

const listKey = memoryKeys.list({ q: "", tags: [] });
const searchKey = memoryKeys.list({ q: "lisbon", tags: [] });

const timelineKey = memoryKeys.timeline({ q: "", tags: [] });
const onThisDayKey = memoryKeys.onThisDay("2026-11-26");

/**
 * A cache holding every kind of memory query, all fresh: a list, a search, the timeline, the tags,
 * On this day, and two memories with their neighbours, comments and reactions.
 */
function seededClient(): QueryClient {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(listKey, { pages: [], pageParams: [] });
  client.setQueryData(searchKey, { pages: [], pageParams: [] });
  client.setQueryData(timelineKey, { years: [] });
  client.setQueryData(memoryKeys.tags(), { tags: [] });
  client.setQueryData(onThisDayKey, { groups: [] });
  for (const id of ["m1", "m2"]) {
    client.setQueryData(memoryKeys.detail(id), { id });
    client.setQueryData(memoryKeys.neighbours(id), {});
    client.setQueryData(memoryKeys.comments(id), { comments: [] });
    client.setQueryData(memoryKeys.reactions(id), { reactions: [] });
  }
  return client;
}

function invalidated(client: QueryClient): string[] {
  return client
    .getQueryCache()
    .getAll()
    .filter((query) => query.state.isInvalidated)
    .map((query) => JSON.stringify(query.queryKey));
}

const key = (queryKey: readonly unknown[]) => JSON.stringify(queryKey);

describe("the event readers kept off home's script", () => {
  // They read by hand what the contract's schemas say; these hold them to the schemas.
  it.each([
    '{"id":"m1","actor":"u1"}',
    '{"id":"m1","actor":"u1","extra":true}',
    '{"id":"","actor":"u1"}',
    '{"id":"m1"}',
    '{"id":7,"actor":"u1"}',
    '{"id":"m1","actor":null}',
    "[]",
    "null",
    '"m1"',
    "{}",
    "not json",
    "",
  ])("reads %s as MemoryEventData does", (data) => {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      value = undefined;
    }
    const parsed = MemoryEventData.safeParse(value);
    expect(readMemoryEventData(data)).toEqual(parsed.success ? parsed.data : undefined);
  });

  it.each([
    '{"id":"p1","memory_id":null,"status":"processing","progress":0.4,"error_code":null}',
    '{"id":"p1","memory_id":"m1","status":"ready","progress":1,"error_code":null,"extra":1}',
    '{"id":"p1","memory_id":"m1","status":"failed","progress":0,"error_code":"undecodable_video"}',
    '{"id":"p1","memory_id":null,"status":"done","progress":1,"error_code":null}',
    '{"id":"p1","memory_id":null,"status":"processing","progress":1.5,"error_code":null}',
    '{"id":"p1","memory_id":null,"status":"processing","progress":"0.4","error_code":null}',
    '{"id":"p1","status":"processing","progress":0.4,"error_code":null}',
    '{"id":"","memory_id":null,"status":"ready","progress":1,"error_code":null}',
    '{"id":"p1","memory_id":7,"status":"ready","progress":1,"error_code":null}',
    "null",
    "not json",
  ])("reads %s as MediaProgressData does", (data) => {
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      value = undefined;
    }
    const parsed = MediaProgressData.safeParse(value);
    expect(readMediaProgressData(data)).toEqual(parsed.success ? parsed.data : undefined);
  });

  it.each([...memoryEventTypes, resyncEventType, "memory", "Memory.created", "", "comment.created "])(
    "knows the type %j as MemoryEventType does",
    (type) => {
      expect(isMemoryEventType(type)).toBe(MemoryEventType.safeParse(type).success);
    },
  );
});

describe("applyLiveEvent", () => {
  it.each(["memory.created", "memory.updated", "memory.deleted"])(
    "refreshes every list and the timeline, the tags, On this day, the neighbours and the memory on %s; not another memory, nor any comments or reactions",
    (type) => {
      const client = seededClient();

      applyLiveEvent(client, { type, data: JSON.stringify({ id: "m1", actor: "u2" }), lastEventId: "e1" });

      expect(invalidated(client).sort()).toEqual(
        [
          key(listKey),
          key(searchKey),
          key(timelineKey),
          key(memoryKeys.tags()),
          key(onThisDayKey),
          key(memoryKeys.neighbours("m1")),
          key(memoryKeys.neighbours("m2")),
          key(memoryKeys.detail("m1")),
        ].sort(),
      );
    },
  );

  it.each([
    ["comment.created", memoryKeys.comments("m1")],
    ["comment.updated", memoryKeys.comments("m1")],
    ["comment.deleted", memoryKeys.comments("m1")],
    ["reaction.changed", memoryKeys.reactions("m1")],
  ])(
    "refreshes the counts of the lists and On this day, the memory and its %s; not the timeline, the tags, the neighbours or another memory's",
    (type, changed) => {
      const client = seededClient();

      applyLiveEvent(client, { type, data: JSON.stringify({ id: "m1", actor: "u2" }), lastEventId: "e1" });

      expect(invalidated(client).sort()).toEqual(
        [key(listKey), key(searchKey), key(onThisDayKey), key(memoryKeys.detail("m1")), key(changed)].sort(),
      );
    },
  );

  it("refreshes everything on resync", () => {
    const client = seededClient();

    applyLiveEvent(client, { type: "resync", data: "{}", lastEventId: "" });

    expect(invalidated(client)).toHaveLength(client.getQueryCache().getAll().length);
  });

  it("ignores events it does not know", () => {
    const client = seededClient();

    applyLiveEvent(client, { type: "message", data: '{"id":"m1"}', lastEventId: "" });

    expect(invalidated(client)).toEqual([]);
  });

  it("still refreshes the lists when the data is not the expected JSON", () => {
    const client = seededClient();

    applyLiveEvent(client, { type: "memory.updated", data: "not json", lastEventId: "" });

    expect(invalidated(client)).toContain(key(listKey));
    expect(invalidated(client)).toContain(key(memoryKeys.tags()));
    expect(invalidated(client).filter((queryKey) => queryKey.includes("detail"))).toEqual([]);
  });

  it("leaves the memory alone when this screen deleted it (its detail page is leaving)", async () => {
    const client = seededClient();
    await client
      .getMutationCache()
      .build(client, { mutationKey: deleteMemoryMutationKey, mutationFn: async (_id: string) => {} })
      .execute("m1");

    applyLiveEvent(client, { type: "memory.deleted", data: JSON.stringify({ id: "m1", actor: "u1" }), lastEventId: "e1" });

    expect(invalidated(client)).not.toContain(key(memoryKeys.detail("m1")));
    expect(invalidated(client)).toContain(key(listKey));
  });

  describe("a video's preparation (media.progress)", () => {
    afterEach(() => clearMediaProgress());
    const progress = (data: Record<string, unknown>) => ({
      type: "media.progress",
      data: JSON.stringify({ id: "v1", memory_id: "m1", status: "processing", progress: 0.25, error_code: null, ...data }),
      lastEventId: "e1",
    });

    it("keeps how far it is and refetches nothing while it runs", () => {
      const client = seededClient();
      applyLiveEvent(client, progress({}));
      expect(mediaProgressOf("v1")).toEqual({ status: "processing", progress: 0.25, error_code: null });
      expect(invalidated(client)).toEqual([]);
    });

    it("refetches its memory and the lists once it is ready or has failed, then forgets it", async () => {
      const client = seededClient();
      applyLiveEvent(client, progress({ status: "failed", progress: 0.5, error_code: "corrupt_video" }));
      expect(mediaProgressOf("v1")).toEqual({ status: "failed", progress: 0.5, error_code: "corrupt_video" });
      expect(invalidated(client)).toContain(key(memoryKeys.detail("m1")));
      expect(invalidated(client)).toContain(key(listKey));
      expect(invalidated(client)).toContain(key(onThisDayKey));
      await waitFor(() => expect(mediaProgressOf("v1")).toBeUndefined());
    });

    it("refetches nothing for a video in no memory yet (the uploader's form), and ignores data not as the contract says", () => {
      const client = seededClient();
      applyLiveEvent(client, progress({ memory_id: null, status: "ready", progress: 1 }));
      expect(mediaProgressOf("v1")?.status).toBe("ready");
      applyLiveEvent(client, progress({ id: "v2", progress: 7 }));
      expect(mediaProgressOf("v2")).toBeUndefined();
      expect(invalidated(client)).toEqual([]);
    });

    it("knows a save's answer stale when it says processing for a copy the stream said was ready before it came", async () => {
      const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
      // The copy is ready while the memory is being saved: its page is not open yet, nothing to refetch.
      applyLiveEvent(client, progress({ id: "v3", memory_id: "m3", status: "ready", progress: 1 }));
      const saved = fakeMemory({ id: "m3", photos: [fakePhoto({ id: "v3", kind: "live", status: "processing" })] });
      await cacheSavedMemory(client, saved);
      expect(client.getQueryState(memoryKeys.detail("m3"))?.isInvalidated).toBe(true);

      // An answer for media the stream has said nothing of is kept as it is.
      const other = fakeMemory({ id: "m4", photos: [fakePhoto({ id: "v4", kind: "video", status: "processing" })] });
      await cacheSavedMemory(client, other);
      expect(client.getQueryState(memoryKeys.detail("m4"))?.isInvalidated).toBe(false);
      expect(client.getQueryData(memoryKeys.detail("m4"))).toBe(other);
    });
  });
});

describe("useLiveUpdates", () => {
  let server: FakeEventServer;
  let authClient: FakeAuthClient;

  beforeEach(() => {
    server = new FakeEventServer();
    vi.stubGlobal("fetch", server.fetch);
    authClient = new FakeAuthClient({ session: fakeSession() });
    setAuthClient(authClient);
  });

  afterEach(() => {
    setAuthClient(undefined);
    vi.useRealTimers();
  });

  function renderLive(client: QueryClient, auth: Partial<AuthContextValue>) {
    const value: AuthContextValue = {
      status: "signedIn",
      session: authClient.session,
      user: authClient.session?.user ?? null,
      needsSecondFactor: false,
      signOut: async () => {},
      ...auth,
    };
    let current = value;
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <AuthContext value={current}>{children}</AuthContext>
      </QueryClientProvider>
    );
    const view = renderHook(() => useLiveUpdates(), { wrapper });
    return {
      ...view,
      setAuth(next: Partial<AuthContextValue>) {
        current = { ...current, ...next };
        view.rerender();
      },
    };
  }

  it("does not connect while signed out or loading", async () => {
    renderLive(seededClient(), { status: "loading", session: null, user: null });
    renderLive(seededClient(), { status: "signedOut", session: null, user: null });
    await act(async () => {});

    expect(server.requests).toBe(0);
  });

  it("connects with the session's token and applies events", async () => {
    const client = seededClient();
    renderLive(client, {});

    await waitFor(() => expect(server.connections).toHaveLength(1));
    expect(server.latest.url).toBe("/api/v1/events");
    expect(server.latest.headers.get("authorization")).toBe(`Bearer ${authClient.session?.access_token}`);

    server.latest.send("memory.updated", { id: "m2", actor: "u2" }, "e7");
    await waitFor(() => expect(invalidated(client)).toContain(key(memoryKeys.detail("m2"))));
  });

  it("follows a display-name change: every memory screen reloads, and the member's own one refreshes their session", async () => {
    const client = seededClient();
    renderLive(client, {});
    await waitFor(() => expect(server.connections).toHaveLength(1));
    const ownId = authClient.session!.user.id;

    server.latest.send("profile.updated", { id: "someone-else", actor: "someone-else" }, "e8");
    await waitFor(() => expect(invalidated(client)).toHaveLength(client.getQueryCache().getAll().length));
    expect(authClient.refreshSession).not.toHaveBeenCalled();

    server.latest.send("profile.updated", { id: ownId, actor: ownId }, "e9");
    await waitFor(() => expect(authClient.refreshSession).toHaveBeenCalledOnce());
  });

  it("disconnects on sign-out", async () => {
    const view = renderLive(seededClient(), {});
    await waitFor(() => expect(server.connections).toHaveLength(1));

    view.setAuth({ status: "signedOut", session: null, user: null });

    await waitFor(() => expect(server.latest.aborted).toBe(true));
    expect(server.requests).toBe(1);
  });

  it("warns only once reconnecting keeps failing", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    server.next.push(new TypeError("Failed to fetch"), new TypeError("Failed to fetch"), new TypeError("Failed to fetch"));
    renderLive(seededClient(), {});

    await act(() => vi.advanceTimersByTimeAsync(1_000 + 2_000));
    expect(server.requests).toBe(3);
    expect(warn).toHaveBeenCalledOnce();
    expect(warn).toHaveBeenCalledWith("Live updates unavailable; retrying in 4 s.", expect.any(TypeError));

    await act(() => vi.advanceTimersByTimeAsync(4_000));
    await vi.waitFor(() => expect(server.connections).toHaveLength(1));
  });

  it("disconnects on unmount", async () => {
    const view = renderLive(seededClient(), {});
    await waitFor(() => expect(server.connections).toHaveLength(1));

    view.unmount();

    await waitFor(() => expect(server.latest.aborted).toBe(true));
  });

  it("reconnects after a drop, and reloads everything when the server could not replay", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const client = seededClient();
    renderLive(client, {});
    await vi.waitFor(() => expect(server.connections).toHaveLength(1));

    server.latest.end();
    await act(() => vi.advanceTimersByTimeAsync(999));
    expect(server.requests).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(1));

    await vi.waitFor(() => expect(server.connections).toHaveLength(2));
    expect(invalidated(client)).toHaveLength(client.getQueryCache().getAll().length);
  });

  it("resumes from the last event after a drop without reloading everything", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const client = seededClient();
    renderLive(client, {});
    await vi.waitFor(() => expect(server.connections).toHaveLength(1));
    server.latest.send("memory.updated", { id: "m1", actor: "u2" }, "e9");
    await act(() => vi.advanceTimersByTimeAsync(0));
    // Refetch what that event invalidated, so only the reconnect could invalidate anything now.
    for (const query of client.getQueryCache().getAll()) query.setState({ isInvalidated: false });

    server.latest.end();
    await act(() => vi.advanceTimersByTimeAsync(1_000));

    await vi.waitFor(() => expect(server.connections).toHaveLength(2));
    expect(server.latest.headers.get("last-event-id")).toBe("e9");
    expect(invalidated(client)).toEqual([]);
  });

  it("reloads at its first opening what the first screen's early answers filled: changes made before it opened reached no one", async () => {
    resetFirstScreen();
    server.next.push(new Response(JSON.stringify({ tags: [] }), { status: 200 }));
    void requestEarly("/api/v1/tags", "token");
    await takeEarlyAnswer("/api/v1/tags");
    const client = seededClient();
    renderLive(client, {});

    await waitFor(() => expect(server.connections).toHaveLength(1));
    expect(invalidated(client)).toHaveLength(client.getQueryCache().getAll().length);
    resetFirstScreen();
  });

  it("reloads nothing at its first opening when no early answer was taken", async () => {
    resetFirstScreen();
    const client = seededClient();
    renderLive(client, {});

    await waitFor(() => expect(server.connections).toHaveLength(1));
    expect(invalidated(client)).toEqual([]);
  });
});
