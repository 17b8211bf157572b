import { useEffect, useState } from "react";

import { localCalendarDate } from "@/features/memories/utils/on-this-day";

/** Milliseconds until this device's next midnight, plus a second's margin for a timer that fires early. */
function untilNextMidnight(now = new Date()): number {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return midnight.getTime() - now.getTime() + 1_000;
}

/**
 * Today as this device's calendar shows it, held for the life of the screen: it turns over at
 * midnight, and when the page comes back into view (a phone suspends timers in the background),
 * rather than being worked out again at every render.
 */
export function useLocalCalendarDate(): string {
  const [date, setDate] = useState(() => localCalendarDate());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const follow = () => {
      setDate(localCalendarDate());
      clearTimeout(timer);
      timer = setTimeout(follow, untilNextMidnight());
    };
    timer = setTimeout(follow, untilNextMidnight());
    const onVisible = () => {
      if (document.visibilityState === "visible") follow();
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisible);
    };
  }, []);
  return date;
}
