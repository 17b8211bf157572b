import "fake-indexeddb/auto";

import { useState } from "react";
import { loadWebMessages } from "@memory-box/messages/web";
import type { Memory, MemoryInput, Photo } from "@memory-box/contract";
import { onlineManager, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";

import { Button } from "@/components/ui/button";
import { Toaster } from "@/components/ui/sonner";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import { MemoryFormDialog } from "@/features/memories/components/memory-form-dialog";
import { dayTitle } from "@/features/memories/hooks/use-capture-days";
import { setAuthClient } from "@/lib/auth-client";
import { createIntl, englishIntl, setActiveIntl } from "@/lib/intl";
import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { fakeMemory, fakePhoto } from "@/testing/memory-fixtures";
import { apiError, deferred, stubMemoryApi, type ApiHandler, type ApiRequestInfo } from "@/testing/stub-memory-api";

/** A photo file whose capture time the stub server "reads" from its name: "2026-01-03T10_a.png". */
const shot = (takenAt: string | null, name: string) =>
  new File([new Uint8Array([137, 80, 78, 71])], `${takenAt ?? "undated"}_${name}.png`, { type: "image/png" });

/** Answers uploads as the server would, the capture time from the file's name; `uploaded` keeps them in call order. */
function uploads(uploaded: Photo[], hold?: Promise<unknown>): ApiHandler {
  return async ({ body }: ApiRequestInfo) => {
    const file = (body as FormData).get("file") as File;
    await hold;
    const takenAt = file.name.split("_")[0]!;
    const photo = fakePhoto({ url: `/original/${file.name}`, taken_at: takenAt === "undated" ? null : takenAt });
    uploaded.push(photo);
    return photo;
  };
}

/** Answers a batch as the server would: one memory per item, in order. */
function batchAnswer(photos: Photo[]): ApiHandler {
  return ({ body }) => ({
    memories: (body as { items: MemoryInput[] }).items.map((item) =>
      fakeMemory({
        title: item.title,
        memory_date: item.memory_date ?? null,
        photos: (item.photo_ids ?? []).map((id) => photos.find((photo) => photo.id === id)!),
      }),
    ),
  });
}

function renderDialog() {
  setAuthClient(new FakeAuthClient({ session: fakeSession() }));
  onTestFinished(() => setAuthClient(undefined));
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const onSaved = vi.fn<(memory: Memory) => void>();
  const onOpenChange = vi.fn<(open: boolean) => void>();

  function Harness() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <Button onClick={() => setOpen(true)}>Add Memory</Button>
        <MemoryFormDialog
          open={open}
          onSaved={onSaved}
          onOpenChange={(next) => {
            onOpenChange(next);
            setOpen(next);
          }}
        />
      </>
    );
  }

  const user = userEvent.setup({ delay: null });
  render(
    <QueryClientProvider client={queryClient}>
      <Harness />
      <Toaster />
    </QueryClientProvider>,
  );
  return { user, onSaved, onOpenChange, queryClient };
}

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole("button", { name: "Add Memory" }));
  return screen.findByRole("dialog");
}

/** Five photos of three days, chosen out of order, and one without a capture date. */
const threeDays = () => [
  shot("2026-01-04T18:00:00", "a"),
  shot("2026-01-02T09:30:00", "b"),
  shot(null, "c"),
  shot("2026-01-03T23:59:59", "d"),
  shot("2026-01-02T11:00:00", "e"),
];

const offerHeading = /photos? from \d+ days? → \d+ memor(y|ies)\?/;

describe("Add Memory — one memory per capture day (ADR 0063)", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("offers photos of 3 days as 3 memories once they are uploaded; accepted, sends one batch and closes", async () => {
    const uploaded: Photo[] = [];
    const api = stubMemoryApi({
      "POST /api/v1/photos": uploads(uploaded),
      "POST /api/v1/memories/batch": batchAnswer(uploaded),
    });
    const { user, onOpenChange, queryClient } = renderDialog();
    const refreshed = vi.spyOn(queryClient, "invalidateQueries");
    const dialog = await openDialog(user);

    await user.upload(within(dialog).getByLabelText("Photos"), threeDays());

    const heading = await within(dialog).findByRole("heading", { name: "5 photos from 3 days → 3 memories?" });
    expect(heading).toHaveFocus();
    const step = within(dialog).getByRole("region", { name: "5 photos from 3 days → 3 memories?" });
    const days = within(step)
      .getAllByRole("heading", { level: 4 })
      .map((day) => day.textContent);
    expect(days).toEqual(["January 2, 2026", "January 3, 2026", "January 4, 2026"]);
    // The first day holds its own two photos and the undated one.
    expect(within(step).getByText("3 photos")).toBeInTheDocument();
    expect(within(step).getAllByText("1 photo")).toHaveLength(2);
    expect(within(step).getByText("1 photo has no capture date and joins this day.")).toBeInTheDocument();
    expect(within(within(step).getByRole("list", { name: "Photos of January 2, 2026" })).getAllByRole("img")).toHaveLength(3);
    expect(within(within(step).getByRole("list", { name: "Photos of January 4, 2026" })).getAllByRole("img")).toHaveLength(1);

    await user.click(within(step).getByRole("button", { name: "Make 3 memories" }));

    expect(await screen.findByText("3 memories added!")).toBeInTheDocument();
    expect(screen.getByText("One for each day, titled with its date.")).toBeInTheDocument();
    await waitFor(() => expect(onOpenChange).toHaveBeenLastCalledWith(false));
    const [batch, ...more] = api.calls("POST /api/v1/memories/batch");
    expect(more).toHaveLength(0);
    expect(api.calls("POST /api/v1/memories")).toHaveLength(0);
    const id = (name: string) => uploaded.find((photo) => photo.url.endsWith(`_${name}.png`))!.id;
    expect(batch!.body).toEqual({
      items: [
        { title: "January 2, 2026", memory_date: "2026-01-02", photo_ids: [id("b"), id("e"), id("c")] },
        { title: "January 3, 2026", memory_date: "2026-01-03", photo_ids: [id("d")] },
        { title: "January 4, 2026", memory_date: "2026-01-04", photo_ids: [id("a")] },
      ],
    });
    expect(batch!.headers.get("Idempotency-Key")).toMatch(/^[0-9a-f-]{36}$/);
    // The lists refresh to show them.
    expect(refreshed).toHaveBeenCalledWith({ queryKey: memoryKeys.lists() });
  });

  it("titles each day's memory as the member's language writes its date", async () => {
    const uploaded: Photo[] = [];
    const api = stubMemoryApi({
      "POST /api/v1/photos": uploads(uploaded),
      "POST /api/v1/memories/batch": batchAnswer(uploaded),
    });
    const { user } = renderDialog();
    const dialog = await openDialog(user);
    await user.upload(within(dialog).getByLabelText("Photos"), [
      shot("2026-01-03T10:00:00", "a"),
      shot("2026-02-14T10:00:00", "b"),
    ]);
    await user.click(await within(dialog).findByRole("button", { name: "Make 2 memories" }));
    await waitFor(() => expect(api.calls("POST /api/v1/memories/batch")).toHaveLength(1));
    const items = (api.calls("POST /api/v1/memories/batch")[0]!.body as { items: MemoryInput[] }).items;
    expect(items.map((item) => item.title)).toEqual(["January 3, 2026", "February 14, 2026"]);
  });

  it("is offered for photos shared from the gallery too: the share opens the same dialog with them chosen", async () => {
    const uploaded: Photo[] = [];
    const api = stubMemoryApi({
      "POST /api/v1/photos": uploads(uploaded),
      "POST /api/v1/memories/batch": batchAnswer(uploaded),
    });
    setAuthClient(new FakeAuthClient({ session: fakeSession() }));
    onTestFinished(() => setAuthClient(undefined));
    const onOpenChange = vi.fn<(open: boolean) => void>();
    const user = userEvent.setup({ delay: null });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { mutations: { retry: false } } })}>
        <MemoryFormDialog
          open
          onOpenChange={onOpenChange}
          initialFiles={[shot("2026-03-01T10:00:00", "a"), shot("2026-03-02T10:00:00", "b")]}
        />
      </QueryClientProvider>,
    );
    const dialog = await screen.findByRole("dialog");

    await user.click(await within(dialog).findByRole("button", { name: "Make 2 memories" }));

    await waitFor(() => expect(onOpenChange).toHaveBeenLastCalledWith(false));
    expect(api.calls("POST /api/v1/memories/batch")).toHaveLength(1);
  });

  it("is not offered for photos of one day: the form goes on as today", async () => {
    stubMemoryApi({ "POST /api/v1/photos": uploads([]) });
    const { user } = renderDialog();
    const dialog = await openDialog(user);
    await user.upload(within(dialog).getByLabelText("Photos"), [
      shot("2026-01-02T09:00:00", "a"),
      shot("2026-01-02T21:00:00", "b"),
      shot(null, "c"),
    ]);
    await within(dialog).findByText("2026-01-02T21:00:00_b.png: uploaded");
    await waitFor(() => expect(within(dialog).getAllByText(/: uploaded$/)).toHaveLength(3));
    expect(within(dialog).queryByRole("heading", { name: offerHeading })).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText("Date")).toHaveValue("2026-01-02");
  });

  it("is not offered for photos of more than 31 days", async () => {
    stubMemoryApi({ "POST /api/v1/photos": uploads([]) });
    const { user } = renderDialog();
    const dialog = await openDialog(user);
    const files = Array.from({ length: 32 }, (_, day) => shot(`2026-01-${String(day + 1).padStart(2, "0")}T10:00:00`, `d${day}`));
    files[31] = shot("2026-02-01T10:00:00", "d31");
    await user.upload(within(dialog).getByLabelText("Photos"), files);
    await waitFor(() => expect(within(dialog).getAllByText(/: uploaded$/)).toHaveLength(32), { timeout: 10_000 });
    expect(within(dialog).queryByRole("heading", { name: offerHeading })).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText("Title")).toBeInTheDocument();
  });

  it("is not offered offline: photos uploaded as the connection went away stay in one memory's form", async () => {
    const hold = deferred();
    stubMemoryApi({ "POST /api/v1/photos": uploads([], hold.promise) });
    const { user } = renderDialog();
    const dialog = await openDialog(user);
    await user.upload(within(dialog).getByLabelText("Photos"), [
      shot("2026-01-02T10:00:00", "a"),
      shot("2026-01-03T10:00:00", "b"),
    ]);

    const online = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    window.dispatchEvent(new Event("offline"));
    // Back online for the tests after this one: the query client's own watch of the connection heard it too.
    onTestFinished(() => {
      online.mockRestore();
      onlineManager.setOnline(true);
    });
    hold.resolve(undefined);
    await waitFor(() => expect(within(dialog).getAllByText(/: uploaded$/)).toHaveLength(2));
    expect(within(dialog).queryByRole("heading", { name: offerHeading })).not.toBeInTheDocument();
  });

  it("is not offered once the member has begun to write one memory (a title typed)", async () => {
    stubMemoryApi({ "POST /api/v1/photos": uploads([]) });
    const { user } = renderDialog();
    const dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText("Title"), "Our weekend");
    await user.upload(within(dialog).getByLabelText("Photos"), [
      shot("2026-01-02T10:00:00", "a"),
      shot("2026-01-03T10:00:00", "b"),
    ]);
    await waitFor(() => expect(within(dialog).getAllByText(/: uploaded$/)).toHaveLength(2));
    expect(within(dialog).queryByRole("heading", { name: offerHeading })).not.toBeInTheDocument();
  });

  it("declined, the form goes on with every photo in one memory, and does not ask again", async () => {
    const uploaded: Photo[] = [];
    const api = stubMemoryApi({
      "POST /api/v1/photos": uploads(uploaded),
      "POST /api/v1/memories": ({ body }) => fakeMemory({ title: (body as MemoryInput).title }),
    });
    const { user, onSaved } = renderDialog();
    const dialog = await openDialog(user);
    await user.upload(within(dialog).getByLabelText("Photos"), threeDays());

    await user.click(await within(dialog).findByRole("button", { name: "Keep as one memory" }));

    const title = within(dialog).getByLabelText("Title");
    expect(title).toHaveFocus();
    expect(within(dialog).queryByRole("heading", { name: offerHeading })).not.toBeInTheDocument();
    // The first photo's capture date filled the date, as today.
    expect(within(dialog).getByLabelText("Date")).toHaveValue("2026-01-04");
    // Another day's photo chosen afterwards does not bring the question back.
    await user.upload(within(dialog).getByLabelText("Photos"), [shot("2026-01-05T10:00:00", "f")]);
    await waitFor(() => expect(within(dialog).getAllByText(/: uploaded$/)).toHaveLength(6));
    expect(within(dialog).queryByRole("heading", { name: offerHeading })).not.toBeInTheDocument();
    await user.type(title, "Our winter week");
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(api.calls("POST /api/v1/memories/batch")).toHaveLength(0);
    const [create] = api.calls("POST /api/v1/memories");
    expect((create!.body as MemoryInput).photo_ids).toHaveLength(6);
    expect(new Set((create!.body as MemoryInput).photo_ids)).toEqual(new Set(uploaded.map((photo) => photo.id)));
  });

  it("shows the server's refusal in words, keeps the step usable, and declining still works", async () => {
    const api = stubMemoryApi({
      "POST /api/v1/photos": uploads([]),
      "POST /api/v1/memories/batch": () => apiError(413, "request_entity_too_large", "Request body too large"),
    });
    const { user, onOpenChange } = renderDialog();
    const dialog = await openDialog(user);
    await user.upload(within(dialog).getByLabelText("Photos"), threeDays());
    await user.click(await within(dialog).findByRole("button", { name: "Make 3 memories" }));

    const alert = await within(dialog).findByRole("alert");
    expect(alert).toHaveTextContent("No memory was added");
    expect(alert).toHaveTextContent(
      "That is more than can be sent at once. Keep the photos as one memory, or add fewer days at a time.",
    );
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
    expect(within(dialog).getByRole("button", { name: "Make 3 memories" })).toBeEnabled();
    expect(api.calls("POST /api/v1/memories/batch")).toHaveLength(1);

    await user.click(within(dialog).getByRole("button", { name: "Keep as one memory" }));
    expect(within(dialog).getByLabelText("Title")).toHaveFocus();
  });

  it("names a photo already in another memory (409), and a retry after a dropped connection sends the same key", async () => {
    const uploaded: Photo[] = [];
    const answers: ApiHandler[] = [
      () => apiError(409, "photo_in_use", "A listed photo belongs to another memory."),
      () => {
        throw new TypeError("Failed to fetch");
      },
      batchAnswer(uploaded),
    ];
    const api = stubMemoryApi({
      "POST /api/v1/photos": uploads(uploaded),
      "POST /api/v1/memories/batch": (request) => answers.shift()!(request),
    });
    const { user, onOpenChange } = renderDialog();
    const dialog = await openDialog(user);
    await user.upload(within(dialog).getByLabelText("Photos"), threeDays());
    const accept = await within(dialog).findByRole("button", { name: "Make 3 memories" });

    await user.click(accept);
    expect(await within(dialog).findByRole("alert")).toHaveTextContent(
      "One of these photos already belongs to another memory. Close this window and choose the photos again.",
    );
    await user.click(accept);
    expect(await within(dialog).findByText(/The connection to the server dropped before it answered/)).toBeInTheDocument();
    await user.click(accept);

    await waitFor(() => expect(onOpenChange).toHaveBeenLastCalledWith(false));
    const keys = api.calls("POST /api/v1/memories/batch").map((call) => call.headers.get("Idempotency-Key"));
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
  });
});

describe("a day's memory's title", () => {
  afterEach(() => {
    setActiveIntl(englishIntl());
  });

  it("is its date written out in full as the member's language writes it", async () => {
    expect(dayTitle("2026-01-03")).toBe("January 3, 2026");
    setActiveIntl(createIntl("fr", await loadWebMessages("fr")));
    expect(dayTitle("2026-01-03")).toBe("3 janvier 2026");
    setActiveIntl(createIntl("de", await loadWebMessages("de")));
    expect(dayTitle("2026-01-03")).toBe("3. Januar 2026");
  });
});
