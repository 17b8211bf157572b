import { lazy, Suspense, useState, useSyncExternalStore } from "react";

import { outboxMayHoldWork, subscribeToOutboxHint } from "@/features/memories/utils/outbox-hint";
import { useAuth } from "@/lib/auth-context";

const QueuedMemoriesPanel = lazy(() =>
  import("@/features/memories/components/queued-memories-panel").then(({ QueuedMemoriesPanel }) => ({
    default: QueuedMemoriesPanel,
  })),
);

/**
 * The memories saved offline and waiting to be added, with how each stands (ADR 0031). Home
 * loads the queue's code only when the member may have something waiting on this device (a hint
 * in `localStorage`), or once something is queued; most visits load none of it.
 */
export function QueuedMemories() {
  const member = useAuth().user?.id;
  const mayHoldWork = useSyncExternalStore(subscribeToOutboxHint, () => member !== undefined && outboxMayHoldWork(member));
  // Once loaded it stays: it hides itself when the queue is empty.
  const [wantedFor, setWantedFor] = useState<string>();
  if (mayHoldWork && member !== undefined && wantedFor !== member) setWantedFor(member);
  if (member === undefined || wantedFor !== member) return null;
  return (
    <Suspense fallback={null}>
      <QueuedMemoriesPanel key={member} member={member} />
    </Suspense>
  );
}
