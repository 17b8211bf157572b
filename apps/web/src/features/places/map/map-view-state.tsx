import { Button } from "@/components/ui/button";
import type { MapState } from "@/features/places/map/use-map";
import { useIntl } from "@/lib/intl";

/**
 * What a map's box shows over it until the map is drawn: a quiet "Loading map…", or why it could
 * not be drawn (its code not reached offline) with a way to try again.
 */
export function MapViewState({ state }: { state: MapState }) {
  const intl = useIntl();
  if (state.status === "ready") return null;
  return (
    <div className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-muted p-4 text-center text-sm text-muted-foreground">
      {state.status === "loading" ? (
        <p role="status">{intl.formatMessage({ id: "map.loading" })}</p>
      ) : (
        <>
          <p role="alert">{intl.formatMessage({ id: "map.failed" })}</p>
          <Button type="button" variant="outline" size="sm" onClick={state.retry}>
            {intl.formatMessage({ id: "map.retry" })}
          </Button>
        </>
      )}
    </div>
  );
}
