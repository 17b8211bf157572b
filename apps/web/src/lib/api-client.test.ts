import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { ApiError, apiFetch } from "@/lib/api-client";
import { setAuthClient } from "@/lib/auth-client";
import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { apiError, stubMemoryApi } from "@/testing/stub-memory-api";

describe("apiFetch", () => {
  let auth: FakeAuthClient;

  beforeEach(() => {
    auth = new FakeAuthClient({ session: fakeSession() });
    setAuthClient(auth);
  });
  afterEach(() => setAuthClient(undefined));

  it("ends the session here when the server no longer knows it, so the sign-in screen shows", async () => {
    stubMemoryApi({
      "GET /api/v1/tags": () => apiError(401, "session_not_found", "Session from session_id claim in JWT does not exist"),
    });
    await expect(apiFetch("/api/v1/tags")).rejects.toMatchObject({ status: 401, code: "session_not_found" });
    expect(auth.signOut).toHaveBeenCalledWith({ scope: "local" });
  });

  it("keeps the session on any other refusal", async () => {
    stubMemoryApi({ "GET /api/v1/members": () => apiError(403, "owner_only", "Only an owner of this Memory Box can do this.") });
    await expect(apiFetch("/api/v1/members")).rejects.toBeInstanceOf(ApiError);
    expect(auth.signOut).not.toHaveBeenCalled();
  });

  describe("while a part of the server is out of reach (503 with Retry-After, ADR 0073)", () => {
    const outage = () =>
      new Response(JSON.stringify({ code: "service_unavailable", message: "Try again shortly." }), {
        status: 503,
        headers: { "Content-Type": "application/json", "Retry-After": "2" },
      });

    it("asks a read again after the wait the server names, and answers once the server is back", async () => {
      vi.useFakeTimers();
      try {
        let calls = 0;
        stubMemoryApi({ "GET /api/v1/tags": () => (++calls === 1 ? outage() : Response.json({ tags: [] })) });
        const answer = apiFetch("/api/v1/tags");
        await vi.advanceTimersByTimeAsync(1_900);
        expect(calls).toBe(1);
        await vi.advanceTimersByTimeAsync(200);
        await expect(answer).resolves.toEqual({ tags: [] });
        expect(calls).toBe(2);
      } finally {
        vi.useRealTimers();
      }
    });

    it("gives up on a read after two more tries, with the wait in the error for the caller", async () => {
      vi.useFakeTimers();
      try {
        let calls = 0;
        stubMemoryApi({ "GET /api/v1/tags": () => (calls++, outage()) });
        const answer = apiFetch("/api/v1/tags").catch((error: unknown) => error);
        await vi.advanceTimersByTimeAsync(10_000);
        expect(await answer).toMatchObject({ status: 503, code: "service_unavailable", retryAfterSeconds: 2 });
        expect(calls).toBe(3);
      } finally {
        vi.useRealTimers();
      }
    });

    it("never sends a write again by itself: its caller decides, with the wait it is given", async () => {
      let calls = 0;
      stubMemoryApi({ "POST /api/v1/memories": () => (calls++, outage()) });
      await expect(apiFetch("/api/v1/memories", { method: "POST", body: { title: "x" } })).rejects.toMatchObject({
        status: 503,
        retryAfterSeconds: 2,
      });
      expect(calls).toBe(1);
    });
  });
});
