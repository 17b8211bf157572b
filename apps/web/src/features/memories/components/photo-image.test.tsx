import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

import { PhotoImage } from "@/features/memories/components/photo-image";
import { setAuthClient } from "@/lib/auth-client";
import { FakeAuthClient, fakeSession } from "@/testing/fake-auth-client";
import { fakePhoto } from "@/testing/memory-fixtures";
import { stubMemoryApi } from "@/testing/stub-memory-api";

describe("a photo that does not load", () => {
  let renewals: number;
  beforeEach(() => {
    setAuthClient(new FakeAuthClient({ session: fakeSession() }));
    renewals = 0;
    stubMemoryApi({
      "POST /api/v1/photo-access": () => {
        renewals += 1;
        return Response.json({ expires_in: 600 });
      },
    });
  });
  afterEach(() => setAuthClient(undefined));

  it("is tried again once with a renewed photo cookie, and loads", async () => {
    render(<PhotoImage photo={fakePhoto()} size="thumbnail" alt="Memory photo 1" />);

    const first = screen.getByRole("img", { name: "Memory photo 1" });
    fireEvent.error(first);
    await waitFor(() => expect(screen.getByRole("img", { name: "Memory photo 1" })).not.toBe(first));
    expect(renewals).toBe(1);
    const retried = screen.getByRole("img", { name: "Memory photo 1" });
    fireEvent.load(retried);

    expect(retried).toHaveAttribute("data-loaded", "true");
  });

  it("says so in words when it fails again, never as a broken image", async () => {
    render(<PhotoImage photo={fakePhoto()} size="preview" alt="Memory photo 2" />);

    const first = screen.getByRole("img", { name: "Memory photo 2" });
    fireEvent.error(first);
    await waitFor(() => expect(screen.getByRole("img", { name: "Memory photo 2" })).not.toBe(first));
    fireEvent.error(screen.getByRole("img", { name: "Memory photo 2" }));

    const unavailable = await screen.findByRole("img", { name: "Memory photo 2: could not be loaded" });
    expect(unavailable).toHaveTextContent("Photo unavailable");
    expect(unavailable.tagName).toBe("SPAN");
  });
});
