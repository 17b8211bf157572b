import "fake-indexeddb/auto";

import { ErrorCode, type Memory, type MemoryInput } from "@memory-box/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { MemoryFormValues } from "@/features/memories/utils/memory-input";
import { outboxMayHoldWork } from "@/features/memories/utils/outbox-hint";
import { Outbox, outboxOf, queueMemory, type OutboxTransport } from "@/features/memories/utils/outbox-sender";
import { putQueuedMemory, queuedMemories } from "@/features/memories/utils/outbox-store";
import { ApiError, NetworkError } from "@/lib/api-client";
import { announceSignOut } from "@/lib/auth-context";

const alice = "5f0c9a55-8f7e-4bb4-9f0e-2f3c4f5a6b7c";
const bob = "9a1b2c3d-0000-4000-8000-000000000002";
let run = 0;

const values = (title: string): MemoryFormValues => ({
  title,
  content: "",
  memoryDate: "2024-03-04",
  tagText: "train",
  place: null,
});
const photo = (name: string) => new File([`bytes of ${name}`], name, { type: "image/jpeg" });

interface FakeTransport extends OutboxTransport {
  calls: string[];
  /** The idempotency key of each create, in order. */
  keys: string[];
  online: boolean;
  member: string | undefined;
  /** A failure to throw for this upload or clip, if any. */
  refuse?: (file: File) => Error | undefined;
  /** A failure to throw for the create, if any. */
  failCreate?: () => Error | undefined;
  added: Array<{ memory: Memory; photoCount: number }>;
}

/** The server and the session as the queue sees them: every call recorded, answers chosen by the test. */
function fakeTransport(member: string): FakeTransport {
  let uploads = 0;
  const transport: FakeTransport = {
    calls: [],
    keys: [],
    online: true,
    member,
    added: [],
    uploadPhoto: async (file: File) => {
      transport.calls.push(`upload ${file.name} (${await file.text()})`);
      const refusal = transport.refuse?.(file);
      if (refusal) throw refusal;
      return { id: `00000000-0000-4000-8000-${String(++uploads).padStart(12, "0")}` };
    },
    attachMotion: async (photoId: string, clip: File) => {
      transport.calls.push(`attach ${clip.name} (${await clip.text()}) to ${photoId}`);
      const refusal = transport.refuse?.(clip);
      if (refusal) throw refusal;
      return {};
    },
    createMemory: async (input: MemoryInput, idempotencyKey: string) => {
      transport.calls.push(`create ${input.title} [${(input.photo_ids ?? []).join(", ")}]`);
      transport.keys.push(idempotencyKey);
      const failure = transport.failCreate?.();
      if (failure) throw failure;
      return { id: "memory-1", title: input.title } as Memory;
    },
    signedInMember: async () => transport.member,
    isOnline: () => transport.online,
    onAdded: (memory: Memory, photoCount: number) => void transport.added.push({ memory, photoCount }),
  };
  return transport;
}

beforeEach(() => {
  // A fresh member pair per test: each has their own IndexedDB database and hint.
  run++;
  localStorage.clear();
});

afterEach(() => {
  // Stops the page's running queue, as a sign-out does.
  announceSignOut();
  vi.useRealTimers();
});

const member = (base: string) => `${base.slice(0, -4)}${String(run).padStart(4, "0")}`;

describe("the offline queue", () => {
  it("uploads the photos, then adds the memory with them in order, then forgets it", async () => {
    const me = member(alice);
    const transport = fakeTransport(me);
    await queueMemory(me, values("On the night train"), [
      { file: photo("a.jpg") },
      { file: photo("b.jpg"), uploadedId: "00000000-0000-4000-8000-00000000000b" },
      { file: photo("c.jpg") },
    ]);
    expect(outboxMayHoldWork(me)).toBe(true);

    await new Outbox(me, transport).send();

    expect(transport.calls).toEqual([
      "upload a.jpg (bytes of a.jpg)",
      // b.jpg was on the server before the connection went: listed, not sent again.
      "upload c.jpg (bytes of c.jpg)",
      "create On the night train [00000000-0000-4000-8000-000000000001, 00000000-0000-4000-8000-00000000000b, 00000000-0000-4000-8000-000000000002]",
    ]);
    expect(transport.added.map(({ memory, photoCount }) => [memory.title, photoCount])).toEqual([["On the night train", 3]]);
    expect(await queuedMemories(me)).toEqual([]);
    expect(outboxMayHoldWork(me)).toBe(false);
  });

  it("sends a Live Photo as one photo: its clip goes to its still, and after a failure the clip alone is sent again", async () => {
    const me = member(alice);
    const transport = fakeTransport(me);
    const clip = new File(["bytes of IMG_1.MOV"], "IMG_1.MOV", { type: "video/quicktime" });
    await queueMemory(me, values("Sparklers"), [{ file: photo("IMG_1.HEIC"), motion: clip }, { file: photo("b.jpg") }]);
    transport.refuse = (file) => (file.name === "IMG_1.MOV" ? new NetworkError() : undefined);
    const outbox = new Outbox(me, transport);
    await outbox.send();
    expect(outbox.snapshot()).toMatchObject([{ title: "Sparklers", photoCount: 2, state: { kind: "failed" } }]);

    transport.refuse = undefined;
    await outbox.send();
    const still = "00000000-0000-4000-8000-000000000001";
    expect(transport.calls).toEqual([
      "upload IMG_1.HEIC (bytes of IMG_1.HEIC)",
      `attach IMG_1.MOV (bytes of IMG_1.MOV) to ${still}`,
      // The still is on the server already: only its clip is sent again.
      `attach IMG_1.MOV (bytes of IMG_1.MOV) to ${still}`,
      "upload b.jpg (bytes of b.jpg)",
      `create Sparklers [${still}, 00000000-0000-4000-8000-000000000002]`,
    ]);
    expect(transport.added.map(({ photoCount }) => photoCount)).toEqual([2]);
  });

  it("waits while offline, showing it, and sends when the connection returns", async () => {
    const me = member(alice);
    const transport = fakeTransport(me);
    transport.online = false;
    await queueMemory(me, values("Offline"), [{ file: photo("a.jpg") }]);
    const outbox = outboxOf(me, transport);
    await outbox.send();
    expect(transport.calls).toEqual([]);
    expect(outbox.snapshot()).toMatchObject([{ title: "Offline", photoCount: 1, state: { kind: "waiting" } }]);

    transport.online = true;
    window.dispatchEvent(new Event("online"));
    await vi.waitFor(() => expect(transport.added).toHaveLength(1));
    expect(transport.calls).toEqual(["upload a.jpg (bytes of a.jpg)", "create Offline [00000000-0000-4000-8000-000000000001]"]);
    await vi.waitFor(() => expect(outbox.snapshot()).toEqual([]));
  });

  it("shows how far a memory's photos have gone", async () => {
    const me = member(alice);
    const transport = fakeTransport(me);
    await queueMemory(
      me,
      values("Four photos"),
      ["a", "b", "c", "d"].map((name) => ({ file: photo(`${name}.jpg`) })),
    );
    const outbox = new Outbox(me, transport);
    const seen: string[] = [];
    outbox.subscribe(() => {
      const state = outbox.snapshot()[0]?.state;
      if (state?.kind === "uploading") seen.push(`${state.done + 1} of ${state.total}`);
      if (state?.kind === "saving") seen.push("saving");
    });
    await outbox.send();
    expect(seen).toEqual(["1 of 4", "2 of 4", "3 of 4", "4 of 4", "saving"]);
  });

  it("keeps a refused memory with the server's reason, never uploads a photo twice, and sends it on retry", async () => {
    const me = member(alice);
    const transport = fakeTransport(me);
    transport.refuse = (file) =>
      file.name === "big.jpg" ? new ApiError(413, ErrorCode.request_entity_too_large, "Photos can be up to 25 MB.") : undefined;
    await queueMemory(me, values("Refused"), [{ file: photo("a.jpg") }, { file: photo("big.jpg") }]);

    const outbox = new Outbox(me, transport);
    await outbox.send();
    expect(outbox.snapshot()[0]?.state).toEqual({ kind: "failed", reason: "Photos can be up to 25 MB." });
    expect(transport.added).toEqual([]);

    // After a reload, the queue is still there, and a.jpg is not sent again.
    transport.refuse = undefined;
    const reloaded = new Outbox(me, transport);
    await reloaded.send();
    expect(transport.calls.filter((call) => call.startsWith("upload a.jpg"))).toHaveLength(1);
    expect(transport.added).toHaveLength(1);
    expect(await queuedMemories(me)).toEqual([]);
  });

  it("says the connection dropped while online, and waits when it went offline", async () => {
    const me = member(alice);
    const transport = fakeTransport(me);
    transport.refuse = () => new NetworkError();
    await queueMemory(me, values("Dropped"), [{ file: photo("a.jpg") }]);
    const outbox = new Outbox(me, transport);
    await outbox.send();
    const dropped = outbox.snapshot()[0]?.state;
    expect(dropped?.kind === "failed" && dropped.reason).toMatch(/connection dropped/);

    transport.refuse = () => {
      transport.online = false;
      return new NetworkError();
    };
    await outbox.send();
    expect(outbox.snapshot()[0]?.state).toEqual({ kind: "waiting" });
  });

  it("never sends one member's queue while another is signed in, and keeps it for them", async () => {
    const me = member(alice);
    const other = member(bob);
    const transport = fakeTransport(other);
    await queueMemory(me, values("Alice's"), [{ file: photo("a.jpg") }]);

    // Alice's queue, but Bob holds the session: nothing goes.
    await new Outbox(me, transport).send();
    expect(transport.calls).toEqual([]);
    // Bob's own queue holds nothing of Alice's.
    const bobs = new Outbox(other, transport);
    await bobs.send();
    expect(bobs.snapshot()).toEqual([]);
    expect(await queuedMemories(me)).toHaveLength(1);

    // Alice signs in again: hers goes.
    transport.member = me;
    await new Outbox(me, transport).send();
    expect(transport.calls).toEqual(["upload a.jpg (bytes of a.jpg)", "create Alice's [00000000-0000-4000-8000-000000000001]"]);
  });

  it("stops at sign-out and keeps what was not sent", async () => {
    const me = member(alice);
    const transport = fakeTransport(me);
    await queueMemory(me, values("First"), []);
    await queueMemory(me, values("Second"), []);
    const outbox = outboxOf(me, transport);
    transport.failCreate = () => {
      // The member signs out while the first memory is on its way.
      announceSignOut();
      transport.member = undefined;
      return undefined;
    };
    await outbox.send();
    expect(transport.calls).toEqual(["create First []"]);
    expect((await queuedMemories(me)).map((memory) => memory.values.title)).toEqual(["Second"]);
    expect(outbox.snapshot()).toEqual([]);
  });

  it("takes a memory whose answer was lost, found added by its photos, as added: no second copy", async () => {
    const me = member(alice);
    const transport = fakeTransport(me);
    await queueMemory(me, values("Lost answer"), [{ file: photo("a.jpg") }]);
    transport.failCreate = () => new NetworkError();
    const outbox = new Outbox(me, transport);
    await outbox.send();
    expect(outbox.snapshot()[0]?.state.kind).toBe("failed");

    // The server had it: its photo now belongs to a memory.
    transport.failCreate = () => new ApiError(409, ErrorCode.photo_in_use, "A listed photo belongs to another memory.");
    await outbox.send();
    expect(await queuedMemories(me)).toEqual([]);
    expect(transport.calls.filter((call) => call.startsWith("upload"))).toHaveLength(1);
  });

  it("uploads again a photo the server may have deleted, unlisted for too long", async () => {
    const me = member(alice);
    const transport = fakeTransport(me);
    const file = photo("old.jpg");
    await putQueuedMemory(me, {
      id: "queued-long-ago",
      queuedAt: Date.now() - 30 * 60 * 60 * 1000,
      values: values("Long ago"),
      photos: [
        {
          name: file.name,
          type: file.type,
          bytes: await file.arrayBuffer(),
          uploaded: { id: "gone", at: Date.now() - 30 * 60 * 60 * 1000 },
        },
      ],
    });
    await new Outbox(me, transport).send();
    expect(transport.calls).toEqual([
      "upload old.jpg (bytes of old.jpg)",
      "create Long ago [00000000-0000-4000-8000-000000000001]",
    ]);
  });

  it("sends one memory with the same idempotency key on every retry, after a reload too, and another memory with its own", async () => {
    const me = member(alice);
    const transport = fakeTransport(me);
    await queueMemory(me, values("Lost twice"), []);
    await queueMemory(me, values("Another one"), []);
    transport.failCreate = () => new NetworkError();
    await new Outbox(me, transport).send();
    // The page is reloaded: a new queue reads the memory back from the device.
    await new Outbox(me, transport).send();
    transport.failCreate = undefined;
    await new Outbox(me, transport).send();

    const sent = transport.calls.map((call, index) => ({ call, key: transport.keys[index] }));
    const lost = sent.filter(({ call }) => call === "create Lost twice []");
    const another = sent.filter(({ call }) => call === "create Another one []");
    expect(lost).toHaveLength(3);
    expect(another).toHaveLength(3);
    expect(new Set(lost.map(({ key }) => key)).size).toBe(1);
    expect(new Set(another.map(({ key }) => key)).size).toBe(1);
    expect(lost[0]?.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(another[0]?.key).not.toBe(lost[0]?.key);
    expect(await queuedMemories(me)).toEqual([]);
  });

  it("gives a memory queued before keys existed one key, kept for all its retries", async () => {
    const me = member(alice);
    const transport = fakeTransport(me);
    await putQueuedMemory(me, { id: "queued-before-keys", queuedAt: Date.now(), values: values("Older queue"), photos: [] });
    transport.failCreate = () => new NetworkError();
    await new Outbox(me, transport).send();
    expect((await queuedMemories(me))[0]?.idempotencyKey).toBe(transport.keys[0]);
    transport.failCreate = undefined;
    await new Outbox(me, transport).send();
    expect(transport.keys).toHaveLength(2);
    expect(transport.keys[1]).toBe(transport.keys[0]);
  });

  it("takes a memory whose key the server already holds for its earlier request as added: no second copy", async () => {
    const me = member(alice);
    const transport = fakeTransport(me);
    await queueMemory(me, values("Answered, answer lost"), []);
    transport.failCreate = () => new NetworkError();
    const outbox = new Outbox(me, transport);
    await outbox.send();
    transport.failCreate = () =>
      new ApiError(422, ErrorCode.idempotency_key_reused, "This Idempotency-Key was already used for a different request.");
    await outbox.send();
    expect(await queuedMemories(me)).toEqual([]);
  });
});
