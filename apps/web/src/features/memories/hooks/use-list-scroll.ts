import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { NavigationType, useLocation, useNavigationType } from "react-router";

const storageKey = (locationKey: string) => `memory-box:list-scroll:${locationKey}`;

/**
 * Home's scroll position kept per history entry (issue #34): leaving the list (opening a memory)
 * remembers where it was; coming back with Back or Forward puts it there again, once `ready`
 * (the list's pages are drawn again from the cache, so the page is as tall as it was). A new
 * visit starts at the top. Kept in sessionStorage: per tab, gone with it.
 */
export function useListScroll(ready: boolean) {
  const location = useLocation();
  const navigationType = useNavigationType();
  // What to restore, read once as the list mounts: only on Back/Forward.
  const [restoreTo] = useState(() => {
    if (navigationType !== NavigationType.Pop) return undefined;
    const saved = Number(readStored(storageKey(location.key)));
    return Number.isFinite(saved) && saved > 0 ? saved : undefined;
  });
  const restored = useRef(false);
  const locationKey = useRef(location.key);
  const lastY = useRef(0);

  useEffect(() => {
    locationKey.current = location.key;
  }, [location.key]);

  useEffect(() => {
    lastY.current = window.scrollY;
    const remember = () => {
      lastY.current = window.scrollY;
    };
    window.addEventListener("scroll", remember, { passive: true });
    return () => {
      window.removeEventListener("scroll", remember);
      // Leaving the list: the position it was at when the member left it.
      writeStored(storageKey(locationKey.current), String(Math.round(lastY.current)));
    };
  }, []);

  useLayoutEffect(() => {
    if (!ready || restoreTo === undefined || restored.current) return;
    restored.current = true;
    window.scrollTo({ top: restoreTo, behavior: "instant" });
    lastY.current = restoreTo;
  }, [ready, restoreTo]);
}

function readStored(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function writeStored(key: string, value: string) {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // Storage refused (private mode, full): Back starts at the top, as before.
  }
}
