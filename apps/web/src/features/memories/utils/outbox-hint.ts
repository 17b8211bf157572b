/**
 * Whether a member may have memories waiting on this device to be sent (the offline queue, ADR
 * 0031), kept in `localStorage` so home can tell without loading the queue's code or opening
 * IndexedDB. Set before anything is queued and cleared only once the queue is found empty, so it
 * can be wrongly on (the queue's code loads and finds nothing), never wrongly off.
 */
const hintPrefix = "memory-box-outbox:";
/** Announced on `window` when a member's hint turns on in this page. */
const hintEvent = "memory-box-outbox";

export function outboxMayHoldWork(member: string): boolean {
  try {
    return localStorage.getItem(hintPrefix + member) !== null;
  } catch {
    // Storage refused (a locked-down browser): the queue is looked at, to be safe.
    return true;
  }
}

export function markOutboxWork(member: string, hasWork: boolean): void {
  try {
    if (hasWork) localStorage.setItem(hintPrefix + member, "1");
    else localStorage.removeItem(hintPrefix + member);
  } catch {
    // Without storage the hint stays "maybe", which is safe.
  }
}

/** Tells this page's listeners that a memory has just been queued. */
export function announceOutboxWork(): void {
  window.dispatchEvent(new Event(hintEvent));
}

/** Calls `listener` when a hint turns on in this page or another tab. Returns the unsubscribe. */
export function subscribeToOutboxHint(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || event.key.startsWith(hintPrefix)) listener();
  };
  window.addEventListener(hintEvent, listener);
  window.addEventListener("storage", onStorage);
  return () => {
    window.removeEventListener(hintEvent, listener);
    window.removeEventListener("storage", onStorage);
  };
}
