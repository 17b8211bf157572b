import { useCallback, useEffect, useState } from "react";

import { forgetFrame, storedFrameTokens } from "@/features/frame/api/frame-session";
import { PairingScreen } from "@/features/frame/components/pairing-screen";
import { Slideshow, type SlideshowOptions } from "@/features/frame/components/slideshow";

type Mode = { kind: "pairing"; removed: boolean } | { kind: "showing" };

/**
 * `/frame`: the frame device's page (ADR 0076), outside the member screens: a device that holds no
 * session of its own pairs first; a paired one shows its slideshow; one removed in Settings forgets
 * everything it kept and pairs again, saying it was removed.
 */
export function FramePage({
  pairingWait,
  ...options
}: SlideshowOptions & { pairingWait?: (ms: number, signal: AbortSignal) => Promise<void> }) {
  const [mode, setMode] = useState<Mode>(() => (storedFrameTokens() ? { kind: "showing" } : { kind: "pairing", removed: false }));
  const paired = useCallback(() => setMode({ kind: "showing" }), []);
  const removed = useCallback(() => {
    forgetFrame();
    setMode({ kind: "pairing", removed: true });
  }, []);
  useScreenAwake(mode.kind === "showing");

  if (mode.kind === "pairing") return <PairingScreen removed={mode.removed} onPaired={paired} wait={pairingWait} />;
  return <Slideshow onRemoved={removed} {...options} />;
}

/** Keeps the screen on while the slideshow shows, where the browser allows it (the Screen Wake Lock API). */
function useScreenAwake(on: boolean): void {
  useEffect(() => {
    if (!on || !("wakeLock" in navigator)) return;
    let lock: WakeLockSentinel | undefined;
    let ended = false;
    const request = () => {
      if (document.visibilityState !== "visible") return;
      navigator.wakeLock
        .request("screen")
        .then((sentinel) => {
          if (ended) void sentinel.release();
          else lock = sentinel;
        })
        .catch(() => undefined);
    };
    request();
    // A lock ends when the page is hidden; it is asked again when the page shows.
    document.addEventListener("visibilitychange", request);
    return () => {
      ended = true;
      document.removeEventListener("visibilitychange", request);
      void lock?.release();
    };
  }, [on]);
}
