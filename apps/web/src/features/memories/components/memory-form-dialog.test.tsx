import "fake-indexeddb/auto";

import { useState } from "react";
import type { Memory, MemoryInput, Photo } from "@memory-box/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";

import { Button } from "@/components/ui/button";
import { Toaster } from "@/components/ui/sonner";
import { memoryKeys } from "@/features/memories/api/memory-keys";
import { MemoryFormDialog } from "@/features/memories/components/memory-form-dialog";
import { queuedMemories } from "@/features/memories/utils/outbox-store";
import { setAuthClient } from "@/lib/auth-client";
import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { fakeMemory, fakePhoto } from "@/testing/memory-fixtures";
import { tusServer } from "@/testing/fake-tus-server";
import { apiError, deferred, stubMemoryApi, type ApiHandler, type ApiRequestInfo } from "@/testing/stub-memory-api";

/** The tag chips the form's field shows, in order. */
const chips = (dialog: HTMLElement) =>
  within(within(dialog).getByRole("list", { name: "Chosen" }))
    .getAllByRole("listitem")
    .map((item) => item.textContent ?? "");

const png = (name: string) => new File([new Uint8Array([137, 80, 78, 71])], name, { type: "image/png" });
const text = (name: string) => new File(["not a photo"], name, { type: "text/plain" });
const clip = (name: string, type: string, size = 1000) => new File([new Uint8Array(size)], name, { type });

/** Echoes a create or update as the server would: the input applied, photos looked up by id. */
function savedFrom(body: unknown, photos: Photo[], base: Partial<Memory> = {}): Memory {
  const input = body as MemoryInput;
  const byId = new Map(photos.map((photo) => [photo.id, photo]));
  const kept = (input.photo_ids ?? []).map((id) => byId.get(id) ?? fakePhoto({ id }));
  return fakeMemory({
    ...base,
    title: input.title,
    content: input.content ?? null,
    memory_date: input.memory_date ?? null,
    tags: input.tags ?? null,
    photos: kept,
    photo_urls: kept.length > 0 ? kept.map((photo) => photo.url) : null,
    version: (base.version ?? 0) + 1,
  });
}

/** Answers uploads with fresh photos, in call order, named after the uploaded file. */
function uploadHandler(uploaded: Photo[], fail: (file: File) => Response | undefined = () => undefined): ApiHandler {
  return ({ body }: ApiRequestInfo) => {
    const file = (body as FormData).get("file") as File;
    const failure = fail(file);
    if (failure) return failure;
    const photo = fakePhoto({ url: `/original/${file.name}` });
    uploaded.push(photo);
    return photo;
  };
}

function renderDialog({
  memory,
  queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } }),
}: { memory?: Memory; queryClient?: QueryClient } = {}) {
  setAuthClient(new FakeAuthClient({ session: fakeSession() }));
  onTestFinished(() => setAuthClient(undefined));
  const onSaved = vi.fn<(memory: Memory) => void>();
  const onOpenChange = vi.fn<(open: boolean) => void>();

  function Harness() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <Button onClick={() => setOpen(true)}>{memory ? "Edit" : "Add Memory"}</Button>
        <MemoryFormDialog
          open={open}
          memory={memory}
          onSaved={onSaved}
          onOpenChange={(next) => {
            onOpenChange(next);
            setOpen(next);
          }}
        />
      </>
    );
  }

  // The accept filter is the form's job here: user-event would otherwise drop non-images itself.
  const user = userEvent.setup({ applyAccept: false, delay: null });
  render(
    <QueryClientProvider client={queryClient}>
      <Harness />
      <Toaster />
    </QueryClientProvider>,
  );
  return { user, onSaved, onOpenChange, queryClient };
}

async function openDialog(user: ReturnType<typeof userEvent.setup>, trigger = "Add Memory") {
  await user.click(screen.getByRole("button", { name: trigger }));
  return screen.findByRole("dialog");
}

describe("MemoryFormDialog — add", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("shows the labelled fields in a dialog as wide as Edit's, with an 80vh scrolling card", async () => {
    stubMemoryApi({});
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    expect(dialog).toHaveAccessibleName("Add Memory");
    expect(dialog).toHaveAccessibleDescription(/title/i);
    expect(dialog).toHaveClass("sm:max-w-xl");
    expect(within(dialog).getByLabelText("Title")).toHaveFocus();
    expect(within(dialog).getByLabelText("Description").tagName).toBe("TEXTAREA");
    expect(within(dialog).getByLabelText("Date")).toHaveAttribute("type", "date");
    expect(within(dialog).getByLabelText("Tags")).toHaveAccessibleDescription(
      "Separate tags with commas Up to 30 tags, 50 characters each.",
    );
    const photos = within(dialog).getByLabelText("Photos");
    expect(photos).toHaveAttribute("type", "file");
    expect(photos).toHaveAttribute("accept", "image/*,video/mp4,video/quicktime,video/webm");
    expect(photos).toHaveAttribute("multiple");
    expect(dialog.querySelector('[data-slot="card"]')).toHaveClass("h-[80vh]");
    expect(dialog.querySelector('[data-slot="scroll-area"]')).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeEnabled();
  });

  it("keeps Save Memory disabled until the title has more than spaces", async () => {
    stubMemoryApi({});
    const { user } = renderDialog();
    const dialog = await openDialog(user);
    const save = within(dialog).getByRole("button", { name: "Save Memory" });

    expect(save).toBeDisabled();
    await user.type(within(dialog).getByLabelText("Title"), "   ");
    expect(save).toBeDisabled();
    await user.type(within(dialog).getByLabelText("Title"), "Beach");
    expect(save).toBeEnabled();
  });

  it("saves the fields by the server's rules, says so, closes and reports the memory", async () => {
    const create = deferred<unknown>();
    const api = stubMemoryApi({ "POST /api/v1/memories": () => create.promise });
    const { user, onSaved, queryClient } = renderDialog();
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "  Beach day  ");
    await user.type(within(dialog).getByLabelText("Description"), "   ");
    await user.type(within(dialog).getByLabelText("Tags"), " summer, sea ,Summer,, ");
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));

    // Busy: the label changes and every control waits.
    expect(await within(dialog).findByRole("button", { name: "Saving..." })).toBeDisabled();
    expect(within(dialog).getByRole("button", { name: "Cancel" })).toBeDisabled();
    const [request] = api.calls("POST /api/v1/memories");
    expect(request?.body).toEqual({
      title: "Beach day",
      content: null,
      memory_date: null,
      tags: ["summer", "sea"],
      photo_ids: [],
    });

    const saved = savedFrom(request?.body, []);
    create.resolve(Response.json(saved, { status: 201 }));

    expect(await screen.findByText("Memory added!")).toBeInTheDocument();
    expect(screen.getByText("Your memory has been saved successfully.")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(onSaved).toHaveBeenCalledWith(saved);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: memoryKeys.lists() });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: memoryKeys.tags() });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: memoryKeys.onThisDays() });
    expect(queryClient.getQueryData(memoryKeys.detail(saved.id))).toEqual(saved);
  });

  it("sends a date and a description when given", async () => {
    const api = stubMemoryApi({ "POST /api/v1/memories": ({ body }) => savedFrom(body, []) });
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "Anniversary");
    await user.type(within(dialog).getByLabelText("Description"), "  Dinner{enter}and a walk  ");
    await user.type(within(dialog).getByLabelText("Date"), "2024-02-14");
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));

    await screen.findByText("Memory added!");
    expect(api.calls("POST /api/v1/memories")[0]?.body).toMatchObject({
      content: "Dinner\nand a walk",
      memory_date: "2024-02-14",
      tags: null,
    });
  });

  it("uploads the chosen images as they are chosen, skips other files, then saves with the photo ids in order", async () => {
    const uploaded: Photo[] = [];
    const uploadsReleased = deferred<void>();
    const handleUpload = uploadHandler(uploaded);
    const create = deferred<unknown>();
    const api = stubMemoryApi({
      "POST /api/v1/photos": async (request) => {
        await uploadsReleased.promise;
        return handleUpload(request);
      },
      "POST /api/v1/memories": () => create.promise,
    });
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "Holiday");
    await user.upload(within(dialog).getByLabelText("Photos"), [png("first.png"), text("notes.txt"), png("second.png")]);

    // Two previews; the text file is silently left out.
    expect(within(dialog).getByRole("img", { name: "New photo 1" })).toHaveAttribute("src", expect.stringMatching(/^blob:/));
    expect(within(dialog).getByRole("img", { name: "New photo 2" })).toBeInTheDocument();
    expect(within(dialog).queryByRole("img", { name: "New photo 3" })).not.toBeInTheDocument();
    // Each upload shows its own progress while the rest of the form is filled in.
    const progress = await within(dialog).findByRole("progressbar", { name: "Uploading new photo 1" });
    await waitFor(() => expect(progress).toHaveAttribute("aria-valuenow", "50"));
    expect(within(dialog).getByText("second.png: 50%")).toBeInTheDocument();

    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    expect(await within(dialog).findByRole("button", { name: "Uploading..." })).toBeDisabled();

    uploadsReleased.resolve();
    expect(await within(dialog).findByRole("button", { name: "Saving..." })).toBeDisabled();
    expect(
      api
        .calls("POST /api/v1/photos")
        .map((call) => (call.body as FormData).get("file") as File)
        .map((file) => file.name),
    ).toEqual(["first.png", "second.png"]);

    const body = api.calls("POST /api/v1/memories")[0]?.body as MemoryInput;
    const byName = (name: string) => uploaded.find((photo) => photo.url === `/original/${name}`)?.id;
    expect(body.photo_ids).toEqual([byName("first.png"), byName("second.png")]);
    create.resolve(Response.json(savedFrom(body, uploaded), { status: 201 }));
    expect(await screen.findByText("Memory added!")).toBeInTheDocument();
    expect(screen.getByText("Photos uploaded!")).toBeInTheDocument();
    expect(screen.getByText("2 photo(s) added successfully.")).toBeInTheDocument();
  });

  it("uploads nothing when only non-image files are chosen", async () => {
    const api = stubMemoryApi({ "POST /api/v1/memories": ({ body }) => savedFrom(body, []) });
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "Notes");
    await user.upload(within(dialog).getByLabelText("Photos"), [text("notes.txt")]);
    expect(within(dialog).queryByRole("img")).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));

    expect(await screen.findByText("Memory added!")).toBeInTheDocument();
    expect(api.calls("POST /api/v1/photos")).toHaveLength(0);
    expect(screen.queryByText("Photos uploaded!")).not.toBeInTheDocument();
    expect(api.calls("POST /api/v1/memories")[0]?.body).toMatchObject({ photo_ids: [] });
  });

  it("never saves past a refused photo unseen: names the file and the server's reason, saves without it only when told", async () => {
    const uploaded: Photo[] = [];
    const api = stubMemoryApi({
      "POST /api/v1/photos": uploadHandler(uploaded, (file) =>
        file.name === "huge.png"
          ? apiError(413, "request_entity_too_large", "The photo is larger than the upload limit of 25 MB.")
          : undefined,
      ),
      "POST /api/v1/memories": ({ body }) => savedFrom(body, uploaded),
    });
    const { user, onSaved } = renderDialog();
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "Mixed bag");
    await user.upload(within(dialog).getByLabelText("Photos"), [png("good.png"), png("huge.png")]);
    expect(await within(dialog).findByText("huge.png: not uploaded")).toBeInTheDocument();
    expect(within(dialog).getByText("The photo is larger than the upload limit of 25 MB.")).toBeInTheDocument();
    // A refused file the browser cannot draw is a tile with its reason, not the broken-image icon (issue #34).
    const refused = within(dialog).getByRole("img", { name: "New photo 2" });
    fireEvent.error(refused);
    const tile = within(dialog).getByRole("img", { name: "New photo 2" });
    expect(tile.tagName).toBe("DIV");
    expect(tile).toHaveAccessibleDescription(/huge\.png: not uploaded/);
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));

    expect(await screen.findByText("Upload failed")).toBeInTheDocument();
    expect(screen.getByText("Some photos couldn't be uploaded. Please try again.")).toBeInTheDocument();
    const alert = within(dialog).getByRole("alert");
    expect(alert).toHaveTextContent("1 photo wasn't uploaded, so nothing was saved");
    expect(api.calls("POST /api/v1/memories")).toHaveLength(0);
    expect(screen.queryByText("Memory added!")).not.toBeInTheDocument();
    expect(screen.getByRole("dialog")).toBeInTheDocument();

    await user.click(within(alert).getByRole("button", { name: "Save without them" }));
    expect(await screen.findByText("Memory added!")).toBeInTheDocument();
    expect(screen.getByText("1 photo(s) added successfully.")).toBeInTheDocument();
    expect(api.calls("POST /api/v1/memories")[0]?.body).toMatchObject({ photo_ids: [uploaded[0]?.id] });
    expect(onSaved).toHaveBeenCalledOnce();
  });

  it("sends a save again after a dropped connection with the same Idempotency-Key, and a changed memory with a new one", async () => {
    let attempts = 0;
    const api = stubMemoryApi({
      "POST /api/v1/memories": ({ body }) => {
        if (++attempts <= 2) throw new TypeError("Failed to fetch");
        return savedFrom(body, []);
      },
    });
    const { user, onSaved } = renderDialog();
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "Flaky signal");
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    expect(await within(dialog).findByText(/connection to the server dropped/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    await waitFor(() => expect(api.calls("POST /api/v1/memories")).toHaveLength(2));
    await user.type(within(dialog).getByLabelText("Title"), " again");
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    expect(await screen.findByText("Memory added!")).toBeInTheDocument();

    const keys = api.calls("POST /api/v1/memories").map((call) => call.headers.get("Idempotency-Key"));
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(onSaved).toHaveBeenCalledOnce();
  });

  it("retries a photo whose connection dropped, and saves it with the memory", async () => {
    const uploaded: Photo[] = [];
    let attempts = 0;
    const handleUpload = uploadHandler(uploaded);
    const api = stubMemoryApi({
      "POST /api/v1/photos": (request) => {
        if (++attempts === 1) throw new TypeError("Failed to fetch");
        return handleUpload(request);
      },
      "POST /api/v1/memories": ({ body }) => savedFrom(body, uploaded),
    });
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "Patchy signal");
    await user.upload(within(dialog).getByLabelText("Photos"), [png("one.png")]);
    expect(await within(dialog).findByText(/connection dropped/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    await user.click(await within(dialog).findByRole("button", { name: "Retry uploads" }));
    expect(await within(dialog).findByText("one.png: uploaded")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));

    expect(await screen.findByText("Memory added!")).toBeInTheDocument();
    expect(api.calls("POST /api/v1/memories")[0]?.body).toMatchObject({ photo_ids: [uploaded[0]?.id] });
  });

  it("cancels an upload on its way; the memory saves without it", async () => {
    const held = deferred<unknown>();
    const api = stubMemoryApi({
      "POST /api/v1/photos": () => held.promise,
      "POST /api/v1/memories": ({ body }) => savedFrom(body, []),
    });
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "Changed my mind");
    await user.upload(within(dialog).getByLabelText("Photos"), [png("slow.png")]);
    await within(dialog).findByRole("progressbar", { name: "Uploading new photo 1" });
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    // Saving waits for the upload, which can still be cancelled.
    const cancel = await within(dialog).findByRole("button", { name: "Cancel upload of new photo 1" });
    expect(cancel).toBeEnabled();
    await user.click(cancel);

    expect(await screen.findByText("Memory added!")).toBeInTheDocument();
    expect(api.calls("POST /api/v1/memories")[0]?.body).toMatchObject({ photo_ids: [] });
  });

  it("offline, keeps a new memory and its photos on this device to add later; nothing is sent", async () => {
    const api = stubMemoryApi({ "POST /api/v1/photos": uploadHandler([]) });
    const online = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    const { user, onSaved, onOpenChange } = renderDialog();
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "On the train");
    await user.upload(within(dialog).getByLabelText("Photos"), [png("window.png"), text("ticket.txt")]);
    // Chosen offline, the photo waits for the connection instead of failing.
    expect(within(dialog).getByText("window.png: waiting for connection")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));

    expect(await screen.findByText("Saved on this device")).toBeInTheDocument();
    expect(screen.getByText("It will be added when you're back online.")).toBeInTheDocument();
    await waitFor(() => expect(onOpenChange).toHaveBeenLastCalledWith(false));
    expect(api.calls("POST /api/v1/photos")).toHaveLength(0);
    expect(api.calls("POST /api/v1/memories")).toHaveLength(0);
    expect(onSaved).not.toHaveBeenCalled();

    // Kept for the signed-in member, with the photo's bytes (the text file skipped, as when online).
    const kept = await queuedMemories(fakeSession().user.id);
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ values: { title: "On the train" }, photos: [{ name: "window.png", type: "image/png" }] });
    expect(new Uint8Array(kept[0]!.photos[0]!.bytes)).toEqual(new Uint8Array([137, 80, 78, 71]));
    online.mockRestore();
  });

  it("offline, a photo chosen uploads as soon as the connection returns", async () => {
    const uploaded: Photo[] = [];
    const api = stubMemoryApi({ "POST /api/v1/photos": uploadHandler(uploaded) });
    const online = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    const { user } = renderDialog();
    const dialog = await openDialog(user);
    await user.upload(within(dialog).getByLabelText("Photos"), [png("window.png")]);
    expect(within(dialog).getByText("window.png: waiting for connection")).toBeInTheDocument();

    online.mockReturnValue(true);
    window.dispatchEvent(new Event("online"));
    expect(await within(dialog).findByText("window.png: uploaded")).toBeInTheDocument();
    expect(api.calls("POST /api/v1/photos")).toHaveLength(1);
  });

  it("refuses a date before the year 1000 or after next year at the field; nothing is sent", async () => {
    const api = stubMemoryApi({ "POST /api/v1/memories": ({ body }) => savedFrom(body, []) });
    const { user } = renderDialog();
    const dialog = await openDialog(user);
    const date = within(dialog).getByLabelText("Date");
    const last = new Date().getFullYear() + 1;
    expect(date).toHaveAttribute("min", "1000-01-01");
    expect(date).toHaveAttribute("max", `${last}-12-31`);

    await user.type(within(dialog).getByLabelText("Title"), "A typo");
    await user.type(date, "0001-01-01");
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    const rule = `A memory's date can be from the year 1000 to ${last}.`;
    expect(await within(dialog).findByText(rule)).toBeInTheDocument();
    expect(date).toHaveAttribute("aria-invalid", "true");

    await user.clear(date);
    await user.type(date, `${last + 1}-01-01`);
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    expect(await within(dialog).findByText(rule)).toBeInTheDocument();
    expect(api.calls("POST /api/v1/memories")).toHaveLength(0);

    await user.clear(date);
    await user.type(date, `${last}-12-31`);
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    await screen.findByText("Memory added!");
    expect(api.calls("POST /api/v1/memories")[0]?.body).toMatchObject({ memory_date: `${last}-12-31` });
  });

  it("shows a tag rule at the field before anything is sent, and a rule the server names at its field", async () => {
    const api = stubMemoryApi({
      "POST /api/v1/memories": () =>
        Response.json(
          {
            code: "validation_failed",
            message: "The request is not valid.",
            details: [{ path: "body.title", message: "is required" }],
          },
          { status: 400 },
        ),
    });
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "Tagged");
    const tags = within(dialog).getByLabelText("Tags");
    await user.click(tags);
    await user.paste(Array.from({ length: 31 }, (_, index) => `tag${index}`).join(","));
    expect(within(dialog).getByText("31 / 30 tags")).toBeInTheDocument();
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));

    expect(await within(dialog).findByText("A memory can have up to 30 tags; this one has 31.")).toBeInTheDocument();
    expect(tags).toHaveAttribute("aria-invalid", "true");
    expect(tags).toHaveFocus();
    expect(api.calls("POST /api/v1/memories")).toHaveLength(0);

    // Backspace in the empty field takes the last chip off: 30 are allowed.
    await user.type(tags, "{Backspace}");
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    expect(await within(dialog).findByText("Title is required.")).toBeInTheDocument();
    expect(within(dialog).getByLabelText("Title")).toHaveAttribute("aria-invalid", "true");
  });

  it("fills an empty date with the first chosen photo's capture date, which the member can change", async () => {
    stubMemoryApi({ "POST /api/v1/photos": () => fakePhoto({ taken_at: "2024-06-03T18:45:00" }) });
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    await user.upload(within(dialog).getByLabelText("Photos"), [png("beach.png")]);

    const date = within(dialog).getByLabelText("Date");
    await waitFor(() => expect(date).toHaveValue("2024-06-03"));
    expect(date).toHaveAccessibleDescription("Taken from the photo's capture date. You can change it.");
    expect(within(dialog).queryByRole("button", { name: /Use the photo's date/ })).not.toBeInTheDocument();

    // The member's change stays, and a later photo's date does not replace it.
    await user.clear(date);
    await user.type(date, "2024-06-01");
    await user.upload(within(dialog).getByLabelText("Photos"), [png("sunset.png")]);
    await within(dialog).findByRole("button", { name: "Remove new photo 2" });
    expect(date).toHaveValue("2024-06-01");
    expect(date).not.toHaveAccessibleDescription(/capture date/);
  });

  it("takes the date of the first photo chosen even when a later one finishes uploading first", async () => {
    const firstUpload = deferred<unknown>();
    let uploads = 0;
    stubMemoryApi({
      "POST /api/v1/photos": () =>
        ++uploads === 1 ? firstUpload.promise : fakePhoto({ id: "photo-late", taken_at: "2024-09-02T11:00:00" }),
    });
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    await user.upload(within(dialog).getByLabelText("Photos"), [png("kite.png"), png("shell.png")]);
    await waitFor(() => expect(uploads).toBe(2));
    const date = within(dialog).getByLabelText("Date");
    // The second photo is in, the first is not: its date is not known yet, and the second's waits.
    expect(date).toHaveValue("");

    firstUpload.resolve(fakePhoto({ id: "photo-first", taken_at: "2024-09-01T10:00:00" }));
    // Two capture days: the offer of one memory per day comes first (ADR 0063); kept as one memory,
    // the form has the first chosen photo's date.
    await user.click(await within(dialog).findByRole("button", { name: "Keep as one memory" }));
    await waitFor(() => expect(within(dialog).getByLabelText("Date")).toHaveValue("2024-09-01"));
  });

  it("never overwrites a date the member typed, nor one they cleared", async () => {
    stubMemoryApi({ "POST /api/v1/photos": () => fakePhoto({ taken_at: "2024-06-03T18:45:00" }) });
    const { user } = renderDialog();
    const dialog = await openDialog(user);
    const date = within(dialog).getByLabelText("Date");
    await user.type(date, "2020-01-02");
    await user.clear(date);

    await user.upload(within(dialog).getByLabelText("Photos"), [png("beach.png")]);
    // Cleared on purpose: the photo's date is offered, not put in.
    await within(dialog).findByRole("button", { name: "Use the photo's date: Jun 3, 2024" });
    expect(date).toHaveValue("");
  });

  it("reports a failed save and stays open for another try", async () => {
    stubMemoryApi({ "POST /api/v1/memories": () => apiError(500, "internal_error") });
    const { user, onSaved } = renderDialog();
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "Lost");
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));

    expect(await screen.findByText("Error")).toBeInTheDocument();
    expect(screen.getByText("Failed to save memory. Please try again.")).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Save Memory" })).toBeEnabled();
    expect(within(dialog).getByLabelText("Title")).toHaveValue("Lost");
    expect(onSaved).not.toHaveBeenCalled();
  });

  it("does not upload a photo twice when the save is retried", async () => {
    const uploaded: Photo[] = [];
    let attempts = 0;
    const api = stubMemoryApi({
      "POST /api/v1/photos": uploadHandler(uploaded),
      "POST /api/v1/memories": ({ body }) => (++attempts === 1 ? apiError(503, "unavailable") : savedFrom(body, uploaded)),
    });
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "Retry");
    await user.upload(within(dialog).getByLabelText("Photos"), [png("one.png")]);
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    await screen.findByText("Failed to save memory. Please try again.");
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));

    expect(await screen.findByText("Memory added!")).toBeInTheDocument();
    expect(api.calls("POST /api/v1/photos")).toHaveLength(1);
    expect(api.calls("POST /api/v1/memories")[1]?.body).toMatchObject({ photo_ids: [uploaded[0]?.id] });
  });

  it("closes on Cancel, returns focus to the opener and revokes the preview URLs", async () => {
    stubMemoryApi({});
    const revoke = vi.spyOn(URL, "revokeObjectURL");
    const create = vi.spyOn(URL, "createObjectURL");
    const { user, onOpenChange } = renderDialog();
    const dialog = await openDialog(user);

    await user.upload(within(dialog).getByLabelText("Photos"), [png("a.png")]);
    const previewUrl = create.mock.results[0]?.value as string;
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));

    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(onOpenChange).toHaveBeenLastCalledWith(false);
    expect(revoke).toHaveBeenCalledWith(previewUrl);
    expect(screen.getByRole("button", { name: "Add Memory" })).toHaveFocus();
  });

  it("lets a newly chosen photo be taken out again before saving", async () => {
    const api = stubMemoryApi({
      "POST /api/v1/photos": uploadHandler([]),
      "POST /api/v1/memories": ({ body }) => savedFrom(body, []),
    });
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "Second thoughts");
    await user.upload(within(dialog).getByLabelText("Photos"), [png("a.png")]);
    await user.click(within(dialog).getByRole("button", { name: "Remove new photo 1" }));
    expect(within(dialog).queryByRole("img")).not.toBeInTheDocument();
    expect(within(dialog).getByLabelText("Photos")).toHaveFocus();
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));

    await screen.findByText("Memory added!");
    expect(api.calls("POST /api/v1/memories")[0]?.body).toMatchObject({ photo_ids: [] });
  });
});

describe("MemoryFormDialog — tags as chips", () => {
  const tagList = {
    tags: [
      { tag: "travel", count: 4 },
      { tag: "beach", count: 2 },
      { tag: "Barcelona", count: 1 },
    ],
  };

  it("offers the tags in use as typed, makes chips with Enter or a comma, and takes the last off with Backspace", async () => {
    const api = stubMemoryApi({
      "GET /api/v1/tags": () => Response.json(tagList),
      "POST /api/v1/memories": ({ body }) => savedFrom(body, []),
    });
    const { user } = renderDialog();
    const dialog = await openDialog(user);
    await user.type(within(dialog).getByLabelText("Title"), "Chips");
    const tags = within(dialog).getByRole("combobox", { name: "Tags" });
    expect(tags).toHaveAttribute("aria-expanded", "false");

    await user.type(tags, "b");
    const options = await within(dialog).findAllByRole("option");
    expect(options.map((option) => option.textContent)).toEqual(["beach", "Barcelona"]);
    expect(tags).toHaveAttribute("aria-expanded", "true");
    await user.keyboard("{ArrowDown}{ArrowDown}");
    expect(tags).toHaveAttribute("aria-activedescendant", options[1]!.id);
    expect(options[1]).toHaveAttribute("aria-selected", "true");
    await user.keyboard("{Enter}");
    expect(chips(dialog)).toEqual(["Barcelona"]);
    expect(tags).toHaveValue("");

    // A chosen tag is not offered again; a new one becomes a chip with a comma or Enter.
    await user.type(tags, "bar");
    expect(within(dialog).queryAllByRole("option")).toHaveLength(0);
    await user.clear(tags);
    await user.type(tags, "sunset,picnic{Enter}");
    expect(chips(dialog)).toEqual(["Barcelona", "sunset", "picnic"]);

    await user.type(tags, "{Backspace}");
    expect(chips(dialog)).toEqual(["Barcelona", "sunset"]);
    await user.click(within(dialog).getByRole("button", { name: "Remove tag Barcelona" }));
    expect(chips(dialog)).toEqual(["sunset"]);
    expect(tags).toHaveFocus();

    // What is still being typed is saved as a tag too.
    await user.type(tags, "sea");
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    await screen.findByText("Memory added!");
    expect(api.calls("POST /api/v1/memories")[0]?.body).toMatchObject({ tags: ["sunset", "sea"] });
  });

  it("turns comma text, pasted or typed, into one chip per tag, duplicates (ignoring case) once", async () => {
    stubMemoryApi({ "GET /api/v1/tags": () => Response.json(tagList) });
    const { user } = renderDialog();
    const dialog = await openDialog(user);
    const tags = within(dialog).getByRole("combobox", { name: "Tags" });

    await user.click(tags);
    await user.paste("a, b, c");
    expect(chips(dialog)).toEqual(["a", "b", "c"]);
    await user.type(tags, "B, d、e");
    expect(chips(dialog)).toEqual(["a", "b", "c", "d"]);
    expect(tags).toHaveValue("e");
  });

  it("closes the suggestions with Escape and leaves the dialog open", async () => {
    stubMemoryApi({ "GET /api/v1/tags": () => Response.json(tagList) });
    const { user } = renderDialog();
    const dialog = await openDialog(user);
    const tags = within(dialog).getByRole("combobox", { name: "Tags" });
    await user.type(tags, "tr");
    await within(dialog).findByRole("option", { name: "travel" });
    await user.keyboard("{Escape}");
    expect(within(dialog).queryByRole("option")).not.toBeInTheDocument();
    expect(dialog).toBeInTheDocument();
    expect(tags).toHaveAttribute("aria-expanded", "false");
  });
});

describe("MemoryFormDialog — videos", () => {
  afterEach(() => window.localStorage.clear());

  it("sends a video resumably (tus): named, as the member, on after a cut connection from where it stopped; offers its date; saves with its id", async () => {
    const video = fakePhoto({ kind: "video", status: "processing", duration_seconds: 30, taken_at: "2024-06-03T18:45:00" });
    const tus = tusServer(() => video, { cutAt: 400 });
    const api = stubMemoryApi({ ...tus.routes, "POST /api/v1/memories": ({ body }) => savedFrom(body, [video]) });
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "First dance");
    await user.upload(within(dialog).getByLabelText("Photos"), [clip("dance.mp4", "video/mp4", 1000)]);
    expect(within(dialog).getByLabelText("New video 1").tagName).toBe("VIDEO");

    expect(await within(dialog).findByText("dance.mp4: uploaded")).toBeInTheDocument();
    // Not the one-request upload; the file's name and type travel with it.
    expect(api.calls("POST /api/v1/photos")).toHaveLength(0);
    expect([...tus.uploads.values()][0]?.metadata).toEqual({ filename: "dance.mp4", filetype: "video/mp4" });
    // Cut after 400 bytes: the retry asks where it stopped and sends only the rest.
    expect(tus.patches.map(({ offset, size }) => ({ offset, size }))).toEqual([
      { offset: 0, size: 1000 },
      { offset: 400, size: 600 },
    ]);
    expect(tus.patches.every((patch) => patch.authorization === `Bearer ${fakeSession().access_token}`)).toBe(true);
    // Arrived: this browser forgets where to resume it.
    expect(Object.keys(window.localStorage).filter((key) => key.startsWith("tus::"))).toEqual([]);
    // The server's poster shows once it is there, with how the preparation goes.
    expect(within(dialog).getByRole("img", { name: "New video 1" })).toHaveAttribute("src", video.thumbnail_url);
    expect(within(dialog).getByText("Preparing video…")).toBeInTheDocument();

    // Its capture date fills the empty date (issue #34).
    expect(within(dialog).getByLabelText("Date")).toHaveValue("2024-06-03");
    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    expect(await screen.findByText("Memory added!")).toBeInTheDocument();
    expect(api.calls("POST /api/v1/memories")[0]?.body).toMatchObject({ photo_ids: [video.id], memory_date: "2024-06-03" });
  });

  it("names the server's refusal of a video, and cancelling one on its way ends it on the server", async () => {
    const tus = tusServer(() => fakePhoto({ kind: "video" }));
    const held = deferred<unknown>();
    stubMemoryApi({
      ...tus.routes,
      "PATCH /api/v1/uploads/:id": async (request) => {
        const file = tus.uploads.get(request.params.id ?? "");
        if (file?.metadata.filename === "long.mov")
          return apiError(413, "video_too_long", "The video is longer than this Memory Box accepts.");
        await held.promise;
        return tus.routes["PATCH /api/v1/uploads/:id"]!(request);
      },
    });
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    await user.upload(within(dialog).getByLabelText("Photos"), [
      clip("long.mov", "video/quicktime"),
      clip("slow.webm", "video/webm"),
    ]);
    expect(await within(dialog).findByText("The video is longer than this Memory Box accepts.")).toBeInTheDocument();
    expect(within(dialog).getByText("long.mov: not uploaded")).toBeInTheDocument();

    await within(dialog).findByRole("progressbar", { name: "Uploading new photo 2" });
    await waitFor(() => expect(tus.uploads.size).toBe(2));
    await user.click(within(dialog).getByRole("button", { name: "Cancel upload of new photo 2" }));
    await waitFor(() => expect(tus.uploads.has("upload-2")).toBe(false));
    expect(within(dialog).queryByLabelText("New video 2")).not.toBeInTheDocument();
  });

  it("keeps a photo and the clip of the same name chosen together as one Live Photo: the still first, then its motion", async () => {
    const uploaded: Photo[] = [];
    const api = stubMemoryApi({
      "POST /api/v1/photos": uploadHandler(uploaded),
      "POST /api/v1/photos/:id/motion": ({ params }) => {
        const still = uploaded.find((photo) => photo.id === params.id)!;
        const live = { ...still, kind: "live" as const, duration_seconds: 2.5, video_url: "/motion.mp4" };
        uploaded.splice(uploaded.indexOf(still), 1, live);
        return live;
      },
      "POST /api/v1/memories": ({ body }) => savedFrom(body, uploaded),
    });
    const { user } = renderDialog();
    const dialog = await openDialog(user);

    await user.type(within(dialog).getByLabelText("Title"), "Fountain");
    await user.upload(within(dialog).getByLabelText("Photos"), [
      clip("IMG_0042.HEIC", "image/heic"),
      clip("IMG_0042.MOV", "video/quicktime"),
      png("other.png"),
    ]);
    // One tile for the pair, marked LIVE, and the other photo.
    expect(within(dialog).getByRole("img", { name: "Live Photo 1" })).toBeInTheDocument();
    expect(within(dialog).getByRole("img", { name: "New photo 2" })).toBeInTheDocument();
    expect(within(dialog).queryByLabelText(/New video/)).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole("button", { name: "Save Memory" }));
    expect(await screen.findByText("Memory added!")).toBeInTheDocument();
    const stills = api.calls("POST /api/v1/photos").map((call) => ((call.body as FormData).get("file") as File).name);
    expect(stills.toSorted()).toEqual(["IMG_0042.HEIC", "other.png"]);
    const motion = api.calls("POST /api/v1/photos/:id/motion");
    expect(motion).toHaveLength(1);
    expect(((motion[0]?.body as FormData).get("file") as File).name).toBe("IMG_0042.MOV");
    expect(motion[0]?.path).toBe(`/api/v1/photos/${uploaded[0]?.id}/motion`);
    expect(api.calls("POST /api/v1/memories")[0]?.body).toMatchObject({ photo_ids: uploaded.map((photo) => photo.id) });
  });
});

describe("MemoryFormDialog — edit", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const photos = [fakePhoto({ width: 640, height: 480 }), fakePhoto({ width: 480, height: 640 }), fakePhoto()];
  const memory = fakeMemory({
    title: "Road trip",
    content: "Long drive\nGood music",
    memory_date: "2023-08-12",
    tags: ["travel", "summer"],
    photos,
    version: 3,
  });

  it("starts from the memory's values and shows its photos as thumbnails", async () => {
    stubMemoryApi({});
    const { user } = renderDialog({ memory });
    const dialog = await openDialog(user, "Edit");

    expect(dialog).toHaveAccessibleName("Edit Memory");
    // One width for Add and Edit (issue #34).
    expect(dialog).toHaveClass("sm:max-w-xl");
    expect(dialog.className).not.toMatch(/sm:max-w-(md|2xl)/);
    expect(within(dialog).getByLabelText("Title")).toHaveValue("Road trip");
    expect(within(dialog).getByLabelText("Description")).toHaveValue("Long drive\nGood music");
    expect(within(dialog).getByLabelText("Date")).toHaveValue("2023-08-12");
    expect(chips(dialog)).toEqual(["travel", "summer"]);
    expect(within(dialog).getByLabelText("Tags")).toHaveValue("");
    const first = within(dialog).getByRole("img", { name: "Memory photo 1" });
    expect(first).toHaveAttribute("src", photos[0]?.thumbnail_url);
    expect(first).toHaveAttribute("width", "640");
    expect(first).toHaveAttribute("height", "480");
    // Thumbnails are tinted with their ThumbHash's average colour until they load.
    expect(first.style.backgroundColor).toMatch(/^rgba?\(\d+, \d+, \d+/);
    expect(first.style.backgroundImage).toBe("");
    expect(within(dialog).getAllByRole("button", { name: /^Remove photo \d$/ })).toHaveLength(3);
    expect(within(dialog).getByRole("button", { name: "Update Memory" })).toBeEnabled();
  });

  it("offline, an edit is not kept for later: it says so and keeps everything typed; nothing is sent", async () => {
    const api = stubMemoryApi({});
    vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    const { user, onSaved } = renderDialog({ memory });
    const dialog = await openDialog(user, "Edit");

    await user.type(within(dialog).getByLabelText("Title"), " again");
    await user.click(within(dialog).getByRole("button", { name: "Update Memory" }));

    expect(await screen.findByText("Failed to update memory. Please try again.")).toBeInTheDocument();
    expect(within(dialog).getByRole("alert")).toHaveTextContent("You're offline, so nothing was saved.");
    expect(within(dialog).getByLabelText("Title")).toHaveValue("Road trip again");
    expect(api.calls("PUT /api/v1/memories/:id")).toHaveLength(0);
    expect(onSaved).not.toHaveBeenCalled();
  });

  it("removes a photo with the save (left out of photo_ids) and guards the save with If-Match", async () => {
    const update = deferred<unknown>();
    const api = stubMemoryApi({ "PUT /api/v1/memories/:id": () => update.promise });
    const { user, onSaved, queryClient } = renderDialog({ memory });
    const invalidate = vi.spyOn(queryClient, "invalidateQueries");
    const dialog = await openDialog(user, "Edit");

    // Keyboard: the remove button is reachable and operable; focus moves to the next one.
    within(dialog).getByRole("button", { name: "Remove photo 2" }).focus();
    await user.keyboard("{Enter}");
    expect(within(dialog).getAllByRole("button", { name: /^Remove photo \d$/ })).toHaveLength(2);
    expect(within(dialog).getByRole("button", { name: "Remove photo 2" })).toHaveFocus();
    expect(within(dialog).getByRole("img", { name: "Memory photo 2" })).toHaveAttribute("src", photos[2]?.thumbnail_url);
    // Nothing is deleted until the memory is saved.
    expect(api.fetchMock).not.toHaveBeenCalled();

    await user.clear(within(dialog).getByLabelText("Title"));
    await user.type(within(dialog).getByLabelText("Title"), "Road trip 2023");
    await user.click(within(dialog).getByRole("button", { name: "Update Memory" }));

    expect(await within(dialog).findByRole("button", { name: "Updating..." })).toBeDisabled();
    const [request] = api.calls("PUT /api/v1/memories/:id");
    expect(request?.path).toBe(`/api/v1/memories/${memory.id}`);
    expect(request?.headers.get("If-Match")).toBe('"v3"');
    expect(request?.body).toEqual({
      title: "Road trip 2023",
      content: "Long drive\nGood music",
      memory_date: "2023-08-12",
      tags: ["travel", "summer"],
      photo_ids: [photos[0]?.id, photos[2]?.id],
    });

    const saved = savedFrom(request?.body, photos, memory);
    update.resolve(Response.json(saved));
    expect(await screen.findByText("Memory updated!")).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(onSaved).toHaveBeenCalledWith(saved);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: memoryKeys.lists() });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: memoryKeys.tags() });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: memoryKeys.detail(memory.id), exact: true });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: memoryKeys.onThisDays() });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: memoryKeys.neighbourLists() });
    expect(screen.getByRole("button", { name: "Edit" })).toHaveFocus();
  });

  it("adds new photos after the kept ones, labelled Uploading... then Updating...", async () => {
    const uploaded: Photo[] = [];
    const api = stubMemoryApi({
      "POST /api/v1/photos": uploadHandler(uploaded),
      "PUT /api/v1/memories/:id": ({ body }) => savedFrom(body, [...photos, ...uploaded], memory),
    });
    const { user } = renderDialog({ memory });
    const dialog = await openDialog(user, "Edit");

    await user.upload(within(dialog).getByLabelText("Photos"), [png("new.png")]);
    await user.click(within(dialog).getByRole("button", { name: "Update Memory" }));

    expect(await screen.findByText("Memory updated!")).toBeInTheDocument();
    expect(screen.getByText("1 photo(s) added successfully.")).toBeInTheDocument();
    expect(api.calls("PUT /api/v1/memories/:id")[0]?.body).toMatchObject({
      photo_ids: [...photos.map((photo) => photo.id), uploaded[0]?.id],
    });
  });

  it("reports a failed update, including the photo removal that did not happen", async () => {
    stubMemoryApi({ "PUT /api/v1/memories/:id": () => apiError(500, "internal_error") });
    const { user, onSaved } = renderDialog({ memory });
    const dialog = await openDialog(user, "Edit");

    await user.click(within(dialog).getByRole("button", { name: "Remove photo 1" }));
    await user.click(within(dialog).getByRole("button", { name: "Update Memory" }));

    expect(await screen.findByText("Failed to update memory. Please try again.")).toBeInTheDocument();
    expect(screen.getByText("Failed to remove photo.")).toBeInTheDocument();
    expect(within(dialog).getByRole("button", { name: "Update Memory" })).toBeEnabled();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it("on 409 reports the failure, reloads the memory, and a retry starts from the new version", async () => {
    const theirs = {
      ...memory,
      title: "Their title",
      version: 4,
      photos: photos.slice(0, 2),
      updated_by: "bob",
      updated_by_profile: { display_name: "Bob" },
    };
    let puts = 0;
    const api = stubMemoryApi({
      "GET /api/v1/memories/:id": () => theirs,
      "PUT /api/v1/memories/:id": ({ body }) =>
        ++puts === 1 ? apiError(409, "memory_changed") : savedFrom(body, photos, theirs),
    });
    const { user } = renderDialog({ memory });
    const dialog = await openDialog(user, "Edit");

    await user.clear(within(dialog).getByLabelText("Title"));
    await user.type(within(dialog).getByLabelText("Title"), "My title");
    await user.click(within(dialog).getByRole("button", { name: "Update Memory" }));

    expect(await screen.findByText("Error")).toBeInTheDocument();
    expect(screen.getByText("Failed to update memory. Please try again.")).toBeInTheDocument();
    await waitFor(() => expect(api.calls("GET /api/v1/memories/:id")).not.toHaveLength(0));
    // The reloaded copy has two photos; the typed title stays.
    await waitFor(() => expect(within(dialog).getAllByRole("button", { name: /^Remove photo \d$/ })).toHaveLength(2));
    expect(within(dialog).getByLabelText("Title")).toHaveValue("My title");
    // Who changed it and what, beside the member's own value.
    const alert = within(dialog).getByRole("alert");
    expect(alert).toHaveTextContent("Bob changed this memory while you were editing");
    expect(alert).toHaveTextContent("Theirs: Their title");
    expect(alert).toHaveTextContent("Yours: My title");
    expect(within(alert).getByRole("button", { name: "Use theirs" })).toBeInTheDocument();

    await user.click(within(dialog).getByRole("button", { name: "Update Memory" }));
    expect(await screen.findByText("Memory updated!")).toBeInTheDocument();
    const retry = api.calls("PUT /api/v1/memories/:id")[1];
    expect(retry?.headers.get("If-Match")).toBe('"v4"');
    expect(retry?.body).toMatchObject({ title: "My title", photo_ids: [photos[0]?.id, photos[1]?.id] });
  });

  it("on 409 takes in what only the other member changed, and lets the member take theirs where both did", async () => {
    const theirs = {
      ...memory,
      title: "Their title",
      tags: ["beach", "sunset"],
      version: 7,
      updated_by: "bob",
      updated_by_profile: { display_name: "Bob" },
    };
    let puts = 0;
    const api = stubMemoryApi({
      "GET /api/v1/memories/:id": () => theirs,
      "PUT /api/v1/memories/:id": ({ body }) =>
        ++puts === 1 ? apiError(409, "memory_changed") : savedFrom(body, photos, theirs),
    });
    const { user } = renderDialog({ memory });
    const dialog = await openDialog(user, "Edit");

    await user.clear(within(dialog).getByLabelText("Title"));
    await user.type(within(dialog).getByLabelText("Title"), "My title");
    await user.click(within(dialog).getByRole("button", { name: "Update Memory" }));

    const alert = await within(dialog).findByRole("alert");
    // Bob's tags are in the form: a retry cannot drop them.
    expect(chips(dialog)).toEqual(["beach", "sunset"]);
    expect(alert).toHaveTextContent("Their change is in the form: beach, sunset");
    await user.click(within(alert).getByRole("button", { name: "Use theirs" }));
    expect(within(dialog).getByLabelText("Title")).toHaveValue("Their title");

    await user.click(within(dialog).getByRole("button", { name: "Update Memory" }));
    expect(await screen.findByText("Memory updated!")).toBeInTheDocument();
    const retry = api.calls("PUT /api/v1/memories/:id")[1];
    expect(retry?.headers.get("If-Match")).toBe('"v7"');
    expect(retry?.body).toMatchObject({ title: "Their title", tags: ["beach", "sunset"] });
  });
});
