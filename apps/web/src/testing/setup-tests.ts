import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { toast } from "sonner";
import { afterEach, vi } from "vitest";

// Lazy routes load their chunk on first render; on a busy two-core machine that can take longer
// than Testing Library's default one second of waiting.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  // Testing Library only cleans up by itself when Vitest globals are on; they are off here.
  cleanup();
  // Sonner keeps its toasts in module state and replays the live ones to the next toaster.
  toast.dismiss();
  vi.unstubAllGlobals();
});

// jsdom gaps that browser-only UI relies on. Radix ScrollArea measures its viewport with
// ResizeObserver; photo previews use object URLs. Plain stand-ins; tests may spy on them.
if (!("ResizeObserver" in globalThis)) {
  globalThis.ResizeObserver = class ResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}
if (typeof URL.createObjectURL !== "function") {
  let objectUrlCount = 0;
  URL.createObjectURL = () => `blob:http://localhost/object-${++objectUrlCount}`;
  URL.revokeObjectURL = () => {};
}
// jsdom has no PointerEvent, so pointer events would carry no coordinates (the photo viewer's swipe,
// pinch and drag read them): a MouseEvent with the pointer's id and type stands in.
if (!("PointerEvent" in globalThis)) {
  class PointerEventStandIn extends MouseEvent {
    readonly pointerId: number;
    readonly pointerType: string;
    constructor(type: string, init: PointerEventInit = {}) {
      super(type, init);
      this.pointerId = init.pointerId ?? 1;
      this.pointerType = init.pointerType ?? "mouse";
    }
  }
  globalThis.PointerEvent = PointerEventStandIn as typeof PointerEvent;
}
// jsdom's Blob (and so File) cannot read itself as a promise; the offline queue keeps a file's bytes.
if (typeof Blob.prototype.arrayBuffer !== "function") {
  const read = (blob: Blob, as: "arrayBuffer" | "text") =>
    new Promise<ArrayBuffer | string>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result!);
      reader.onerror = () => reject(reader.error ?? new Error("The file could not be read."));
      if (as === "arrayBuffer") reader.readAsArrayBuffer(blob);
      else reader.readAsText(blob);
    });
  Blob.prototype.arrayBuffer = function (this: Blob) {
    return read(this, "arrayBuffer") as Promise<ArrayBuffer>;
  };
  if (typeof Blob.prototype.text !== "function") {
    Blob.prototype.text = function (this: Blob) {
      return read(this, "text") as Promise<string>;
    };
  }
}
