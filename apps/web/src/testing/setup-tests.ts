import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { toast } from "sonner";
import { afterEach, vi } from "vitest";

afterEach(() => {
  // Testing Library only cleans up by itself when Vitest globals are on; they are off here.
  cleanup();
  // Sonner keeps its toasts in module state and replays the live ones to the next toaster.
  toast.dismiss();
  vi.unstubAllGlobals();
});
