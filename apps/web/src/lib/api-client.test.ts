import { afterEach, beforeEach, describe, expect, it } from "vitest";

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
});
