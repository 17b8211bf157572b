import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { uploadResumable } from "@/features/memories/api/resumable-upload";
import { ApiError, NetworkError } from "@/lib/api-client";
import { setAuthClient } from "@/lib/auth-client";
import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { tusServer } from "@/testing/fake-tus-server";
import { fakePhoto } from "@/testing/memory-fixtures";
import { apiError, stubMemoryApi } from "@/testing/stub-memory-api";

const video = (size: number) =>
  new File([new Uint8Array(size)], "walk.mp4", { type: "video/mp4", lastModified: 1_700_000_000_000 });
const storedUploads = () => Object.keys(window.localStorage).filter((key) => key.startsWith("tus::"));

describe("a resumable upload", () => {
  beforeEach(() => setAuthClient(new FakeAuthClient({ session: fakeSession() })));
  afterEach(() => {
    setAuthClient(undefined);
    window.localStorage.clear();
    vi.restoreAllMocks();
  });

  it("cut off while offline, is kept by its fingerprint, and sent again (after a reload) goes on from where the server stopped", async () => {
    const answer = fakePhoto({ kind: "video", status: "processing" });
    const tus = tusServer(() => answer, { cutAt: 300 });
    stubMemoryApi(tus.routes);
    const online = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);

    // The connection goes as the first bytes travel: no retry while offline, the address is kept.
    await expect(uploadResumable(video(1000))).rejects.toBeInstanceOf(NetworkError);
    expect(storedUploads()).toHaveLength(1);

    // The same file chosen again, as after a reload: only the rest is sent.
    online.mockReturnValue(true);
    const progress: number[] = [];
    const photo = await uploadResumable(video(1000), { onProgress: (sent) => progress.push(sent) });
    expect(photo).toEqual(answer);
    expect(tus.uploads.size).toBe(1);
    expect(tus.patches.map(({ offset, size }) => ({ offset, size }))).toEqual([
      { offset: 0, size: 1000 },
      { offset: 300, size: 700 },
    ]);
    expect(progress.at(-1)).toBe(1);
    expect(storedUploads()).toEqual([]);
  });

  it("finished while its answer was lost, and sent again after a reload, takes the media the server made and sends nothing twice", async () => {
    const answer = fakePhoto({ kind: "video", status: "processing" });
    const tus = tusServer(() => answer, { loseLastAnswer: true });
    stubMemoryApi({
      ...tus.routes,
      "GET /api/v1/photos/:id": ({ params }) => (params.id === answer.id ? answer : apiError(404, "photo_not_found")),
    });
    const online = vi.spyOn(navigator, "onLine", "get").mockReturnValue(false);
    await expect(uploadResumable(video(1000))).rejects.toBeInstanceOf(NetworkError);

    online.mockReturnValue(true);
    expect(await uploadResumable(video(1000))).toEqual(answer);
    expect(tus.uploads.size).toBe(1);
    expect(tus.patches).toHaveLength(1);
    expect(storedUploads()).toEqual([]);
  });

  it("is refused with the server's code and words, and not tried again", async () => {
    const tus = tusServer(() => fakePhoto());
    stubMemoryApi({
      ...tus.routes,
      "POST /api/v1/uploads": () => apiError(413, "video_too_large", "The video is larger than this Memory Box accepts."),
    });

    const refusal = uploadResumable(video(10));
    await expect(refusal).rejects.toBeInstanceOf(ApiError);
    await expect(refusal).rejects.toMatchObject({ status: 413, code: "video_too_large" });
    expect(tus.patches).toEqual([]);
  });

  it("cancelled, ends the upload on the server and forgets it", async () => {
    const tus = tusServer(() => fakePhoto());
    const patched = Promise.withResolvers<void>();
    stubMemoryApi({
      ...tus.routes,
      "PATCH /api/v1/uploads/:id": () => {
        patched.resolve();
        return new Promise(() => {});
      },
    });
    const controller = new AbortController();

    const upload = uploadResumable(video(10), { signal: controller.signal });
    await patched.promise;
    controller.abort();
    await expect(upload).rejects.toMatchObject({ name: "AbortError" });
    await vi.waitFor(() => expect(tus.uploads.size).toBe(0));
    await vi.waitFor(() => expect(storedUploads()).toEqual([]));
  });
});
