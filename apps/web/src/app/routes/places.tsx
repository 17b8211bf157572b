import { memoryKeys } from "@/features/memories/api/memory-keys";
import { BackToMemories } from "@/features/memories/components/back-to-memories";
import { PlacesMap } from "@/features/places/components/places-map";
import { useLiveUpdates } from "@/features/memories/hooks/use-live-updates";
import { useIntl } from "@/lib/intl";

/**
 * `/places`: the collection on a map (issue #32), kept current as memories are added, moved or
 * deleted: its queries sit under the memory lists' key, which every change to a memory refreshes
 * (the live stream's and this member's own).
 */
export function PlacesRoute() {
  const intl = useIntl();
  useLiveUpdates();
  return (
    <div className="flex h-svh flex-col bg-muted">
      <header className="border-b bg-background">
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3">
          <div className="-ms-3">
            <BackToMemories />
          </div>
          <h1 className="text-xl font-semibold">{intl.formatMessage({ id: "map.places.title" })}</h1>
        </div>
      </header>
      <main className="flex min-h-0 flex-1 flex-col">
        <PlacesMap lists={memoryKeys.lists()} />
      </main>
    </div>
  );
}
