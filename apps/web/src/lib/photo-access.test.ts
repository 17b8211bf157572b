import { renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { setAuthClient } from "@/lib/auth-client";
import type { AuthStatus } from "@/lib/auth-context";
import { forgetPhotoAccess, usePhotoAccess } from "@/lib/photo-access";
import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { apiError, stubMemoryApi } from "@/testing/stub-memory-api";

describe("photo access cookie", () => {
  let renewals: Array<{ authorization: string | null }>;
  let answer: () => unknown;

  beforeEach(() => {
    vi.useFakeTimers();
    setAuthClient(new FakeAuthClient({ session: fakeSession() }));
    renewals = [];
    answer = () => ({ expires_in: 600 });
    stubMemoryApi({
      "POST /api/v1/photo-access": ({ headers }) => {
        renewals.push({ authorization: headers.get("authorization") });
        return answer();
      },
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    setAuthClient(undefined);
  });

  const renewalsAfter = async (ms: number) => {
    await vi.advanceTimersByTimeAsync(ms);
    return renewals.length;
  };

  it("is renewed as the member signs in, then at half its lifetime, with the member's token", async () => {
    renderHook(() => usePhotoAccess("signedIn"));

    expect(await renewalsAfter(10)).toBe(1);
    expect(renewals[0]?.authorization).toMatch(/^Bearer /);
    expect(await renewalsAfter(299_000)).toBe(1);
    expect(await renewalsAfter(2_000)).toBe(2);
  });

  it("is renewed when the page comes back into view", async () => {
    renderHook(() => usePhotoAccess("signedIn"));
    await renewalsAfter(10);

    document.dispatchEvent(new Event("visibilitychange"));

    expect(await renewalsAfter(10)).toBe(2);
  });

  it("is tried again within a minute when a renewal fails", async () => {
    answer = () => apiError(503, "service_unavailable");
    renderHook(() => usePhotoAccess("signedIn"));

    expect(await renewalsAfter(10)).toBe(1);
    expect(await renewalsAfter(60_000)).toBe(2);
  });

  it("is not asked for while signed out, and stops at sign-out", async () => {
    const { rerender } = renderHook(({ status }: { status: AuthStatus }) => usePhotoAccess(status), {
      initialProps: { status: "signedOut" },
    });
    expect(await renewalsAfter(700_000)).toBe(0);

    rerender({ status: "signedIn" });
    expect(await renewalsAfter(10)).toBe(1);
    rerender({ status: "signedOut" });
    expect(await renewalsAfter(700_000)).toBe(1);
  });

  it("is removed at sign-out", () => {
    forgetPhotoAccess();
    expect(fetch).toHaveBeenCalledWith("/api/v1/photo-access", { method: "DELETE" });
  });
});
