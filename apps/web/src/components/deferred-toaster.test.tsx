import { render, screen, waitFor } from "@testing-library/react";
import { toast } from "sonner";
import { describe, expect, it, vi } from "vitest";

import { DeferredToaster } from "@/components/deferred-toaster";
import { notify } from "@/lib/notify";
import { deferred } from "@/testing/stub-memory-api";

// The toaster's chunk arrives only when the test says so, to see what happens to a toast meanwhile.
const toasterChunk = deferred();
const toasterImported = vi.fn();
vi.mock("@/components/ui/sonner", async (importOriginal) => {
  toasterImported();
  await toasterChunk.promise;
  return importOriginal();
});

/** Sonner's live region, which its toaster always renders. */
const notifications = () => screen.queryByRole("region", { name: /Notifications/ });

// One flow, in order: the module state (has a toast been asked for, is the chunk loaded) is the point.
describe("deferred toaster", () => {
  it("loads nothing until a toast is asked for, then shows a toast requested before its code arrived", async () => {
    render(<DeferredToaster />);
    expect(notifications()).not.toBeInTheDocument();
    expect(toasterImported).not.toHaveBeenCalled();

    notify.error("Access Denied", "This email address is not invited to access the platform");

    // Sonner has the toast, but no toaster shows it yet: its code is still on the way.
    await waitFor(() => expect(toast.getToasts()).toHaveLength(1));
    expect(toasterImported).toHaveBeenCalledOnce();
    expect(notifications()).not.toBeInTheDocument();
    expect(screen.queryByText("Access Denied")).not.toBeInTheDocument();

    toasterChunk.resolve(undefined);

    expect(await screen.findByText("Access Denied")).toBeInTheDocument();
    expect(screen.getByText("This email address is not invited to access the platform")).toBeInTheDocument();
    expect(notifications()).toBeInTheDocument();
  });

  it("shows later toasts at once with the toaster already loaded", async () => {
    render(<DeferredToaster />);
    expect(notifications()).toBeInTheDocument();

    notify.success("Success", "Check your email for confirmation link");

    expect(await screen.findByText("Check your email for confirmation link")).toBeInTheDocument();
  });
});
