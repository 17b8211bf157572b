import { useState } from "react";
import { Link } from "react-router";
import { Plus, Settings } from "lucide-react";

import { Button } from "@/components/ui/button";
import { paths } from "@/config/paths";
import { useOnThisDay } from "@/features/memories/api/get-on-this-day";
import { LazyMemoryFormDialog } from "@/features/memories/components/lazy-memory-form-dialog";
import { MemoryList } from "@/features/memories/components/memory-list";
import { QueuedMemories } from "@/features/memories/components/queued-memories";
import { OnThisDaySection } from "@/features/memories/components/on-this-day";
import { useLiveUpdates } from "@/features/memories/hooks/use-live-updates";
import { useLocalCalendarDate } from "@/features/memories/hooks/use-local-calendar-date";
import { useAuth } from "@/lib/auth-context";
import { userDisplayName } from "@/lib/user-name";

/** The memory list: header with the greeting, "Add Memory", "Settings" and "Sign Out", "On this day" when there is any, then the collection. */
export function HomeRoute() {
  const { user, signOut } = useAuth();
  const [adding, setAdding] = useState(false);
  useLiveUpdates();
  const onThisDay = useOnThisDay(useLocalCalendarDate());

  return (
    <div className="min-h-svh bg-muted">
      <header className="border-b bg-background">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4 py-4">
          <div>
            <h1 className="text-xl font-semibold">Memory Box</h1>
            <p className="text-sm text-muted-foreground">Welcome back, {userDisplayName(user)}!</p>
          </div>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => setAdding(true)}>
              <Plus aria-hidden="true" />
              Add Memory
            </Button>
            <Button asChild variant="outline">
              <Link to={paths.settings}>
                <Settings aria-hidden="true" />
                Settings
              </Link>
            </Button>
            <Button variant="outline" onClick={() => void signOut()}>
              Sign Out
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl p-4">
        <QueuedMemories />
        {onThisDay.data && <OnThisDaySection answer={onThisDay.data} />}
        {/* The list waits for "On this day" to settle, so that it never appears above the list and pushes it down. */}
        <MemoryList onAddMemory={() => setAdding(true)} ready={!onThisDay.isPending} />
      </main>
      {/* Closes itself after a save; the save refreshes the list and the tags. */}
      <LazyMemoryFormDialog open={adding} onOpenChange={setAdding} />
    </div>
  );
}
