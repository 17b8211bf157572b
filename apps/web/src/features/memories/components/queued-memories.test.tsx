import "fake-indexeddb/auto";

import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";

import { Toaster } from "@/components/ui/sonner";
import { QueuedMemories } from "@/features/memories/components/queued-memories";
import { queueMemory } from "@/features/memories/utils/outbox-sender";
import { queuedMemories } from "@/features/memories/utils/outbox-store";
import { setAuthClient } from "@/lib/auth-client";
import { announceSignOut } from "@/lib/auth-context";
import { AuthProvider } from "@/lib/auth-provider";
import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { fakeMemory, fakePhoto } from "@/testing/memory-fixtures";
import { deferred, stubMemoryApi } from "@/testing/stub-memory-api";

const member = fakeUser({ id: "00000000-0000-4000-8000-0000000000a1" });
const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: "image/png" });

function renderQueue() {
  setAuthClient(new FakeAuthClient({ session: fakeSession(member) }));
  onTestFinished(() => setAuthClient(undefined));
  render(
    <AuthProvider>
      <QueryClientProvider client={new QueryClient()}>
        <QueuedMemories />
        <Toaster />
      </QueryClientProvider>
    </AuthProvider>,
  );
}

afterEach(() => {
  announceSignOut();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe("QueuedMemories on home", () => {
  it("shows nothing, and opens no queue, when nothing may wait", async () => {
    stubMemoryApi({});
    const open = vi.spyOn(indexedDB, "open");
    renderQueue();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole("region", { name: "Waiting to be added" })).not.toBeInTheDocument();
    expect(open).not.toHaveBeenCalled();
  });

  it("shows what waits offline, then how far it has gone, and empties once the memory is added", async () => {
    const upload = deferred<unknown>();
    const api = stubMemoryApi({
      "POST /api/v1/photos": () => upload.promise,
      "POST /api/v1/memories": () => fakeMemory({ title: "Night train" }),
    });
    const online = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    await queueMemory(member.id, { title: "Night train", content: "", memoryDate: "", tagText: "", place: null }, [
      { file: png("a.png") },
      { file: png("b.png"), uploadedId: "00000000-0000-4000-8000-00000000000b" },
    ]);
    renderQueue();

    const queue = await screen.findByRole("region", { name: "Waiting to be added" });
    expect(within(queue).getByText("Night train")).toBeInTheDocument();
    expect(within(queue).getByText("Waiting for connection")).toBeInTheDocument();

    online.mockReturnValue(true);
    window.dispatchEvent(new Event("online"));
    expect(await within(queue).findByText("Uploading 1 of 2")).toBeInTheDocument();
    upload.resolve(fakePhoto({ id: "00000000-0000-4000-8000-00000000000a" }));

    expect(await screen.findByText("Memory added!")).toBeInTheDocument();
    expect(screen.getByText("2 photo(s) added successfully.")).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByRole("region", { name: "Waiting to be added" })).not.toBeInTheDocument());
    expect(api.calls("POST /api/v1/memories")[0]?.body).toMatchObject({
      title: "Night train",
      photo_ids: ["00000000-0000-4000-8000-00000000000a", "00000000-0000-4000-8000-00000000000b"],
    });
    // Sent as the member whose queue it is.
    expect(api.calls("POST /api/v1/memories")[0]?.headers.get("authorization")).toBe(`Bearer access-token-for-${member.id}`);
    expect(await queuedMemories(member.id)).toEqual([]);
  });
});
