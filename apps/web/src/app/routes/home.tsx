import { useState } from "react";
import { useLocation } from "react-router";

import { useBox } from "@/features/box/api/box";
import { BoxBanner } from "@/features/box/components/box-banner";
import { useChangeFirstRunGuide, useFirstRunGuide } from "@/features/guide/api/guide";
import { LazyFirstRunGuide } from "@/features/guide/components/lazy-first-run-guide";

import { useOnThisDay } from "@/features/memories/api/get-on-this-day";
import { HomeFrame } from "@/features/memories/components/home-frame";
import { LazyMemoryFormDialog } from "@/features/memories/components/lazy-memory-form-dialog";
import { MemoryList } from "@/features/memories/components/memory-list";
import { QueuedMemories } from "@/features/memories/components/queued-memories";
import { OnThisDaySection } from "@/features/memories/components/on-this-day";
import { useLiveUpdates } from "@/features/memories/hooks/use-live-updates";
import { useLocalCalendarDate } from "@/features/memories/hooks/use-local-calendar-date";
import { useAuth } from "@/lib/auth-context";
import { userDisplayName } from "@/lib/user-name";

/**
 * The memory list: header with the greeting, "Add Memory", "Settings" and "Sign Out", the box's name,
 * cover and anniversary line when set (ADR 0065), "On this day" when there is any, then the collection.
 */
export function HomeRoute() {
  const { user, signOut } = useAuth();
  const [adding, setAdding] = useState(false);
  useLiveUpdates();
  const today = useLocalCalendarDate();
  const onThisDay = useOnThisDay(today);
  const box = useBox();
  const guide = useFirstRunGuide();
  const changeGuide = useChangeFirstRunGuide();
  // "Show the guide again" in Settings comes here with the guide to focus.
  const askedForGuide = (useLocation().state as { guide?: boolean } | null)?.guide === true;

  return (
    <HomeFrame
      userName={userDisplayName(user)}
      onAddMemory={() => setAdding(true)}
      onSignOut={() => void signOut()}
      // Closes itself after a save; the save refreshes the list and the tags.
      dialogs={<LazyMemoryFormDialog open={adding} onOpenChange={setAdding} />}
    >
      <BoxBanner today={today} />
      <QueuedMemories />
      {guide.data && guide.data.dismissed_at === null && !onThisDay.isPending && (
        <LazyFirstRunGuide
          owner={guide.data.role === "owner"}
          focusOnShow={askedForGuide}
          onDismiss={() => changeGuide.mutate(true)}
        />
      )}
      {onThisDay.data && <OnThisDaySection answer={onThisDay.data} />}
      {/* The list waits for the box and "On this day" to settle, so that neither appears above the list and pushes it down. */}
      <MemoryList onAddMemory={() => setAdding(true)} ready={!onThisDay.isPending && !box.isPending} />
    </HomeFrame>
  );
}
