import { lazy, Suspense, useId, useRef, useState } from "react";
import { PlaceLimits, type GeoPoint } from "@memory-box/contract";

import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useReversePlace } from "@/features/places/api/reverse-place";
import { countryName, formatCoordinates } from "@/features/places/utils/place-names";
import { useIntl } from "@/lib/intl";

/** A place the member chose: its name and point, and its country when known (to show; the server finds its own). */
export interface PlaceChoice {
  name: string;
  latitude: number;
  longitude: number;
  country_code?: string | null;
}

// MapLibre is large: its code comes only when this dialog opens, never with the form.
const MapPicker = lazy(() => import("@/features/places/map/map-picker"));

/**
 * "Pick on a map": the member taps a point; its nearest known place names it (or its coordinates,
 * far from any), in a field the member can change before using it.
 */
export function MapPickDialog({
  open,
  onOpenChange,
  initial,
  onUse,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where the map starts: the memory's place or a photo's location, if any. */
  initial: GeoPoint | null;
  onUse: (place: PlaceChoice) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open && <MapPickContent initial={initial} onUse={onUse} onCancel={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function MapPickContent({
  initial,
  onUse,
  onCancel,
}: {
  initial: GeoPoint | null;
  onUse: (place: PlaceChoice) => void;
  onCancel: () => void;
}) {
  const intl = useIntl();
  const id = useId();
  const [point, setPoint] = useState<GeoPoint | null>(null);
  // Undefined until the member types: the name found for the point is shown meanwhile.
  const [typedName, setTypedName] = useState<string>();
  const reverse = useReversePlace(point);
  const known = reverse.data?.place ?? null;
  const found = point === null || reverse.isPending ? "" : known ? known.name : formatCoordinates(point, intl);
  const name = typedName ?? found;
  const looking = point !== null && reverse.isPending;
  // A place used replaces "Pick on a map": the field moves focus to its name, not back to that button.
  const used = useRef(false);

  return (
    <DialogContent className="sm:max-w-2xl" onCloseAutoFocus={(event) => used.current && event.preventDefault()}>
      <DialogHeader>
        <DialogTitle>{intl.formatMessage({ id: "places.mapDialog.title" })}</DialogTitle>
        <DialogDescription>{intl.formatMessage({ id: "places.mapDialog.description" })}</DialogDescription>
      </DialogHeader>
      <Suspense
        fallback={
          <div className="flex h-64 items-center justify-center rounded-md border text-sm text-muted-foreground">
            {intl.formatMessage({ id: "places.mapDialog.loading" })}
          </div>
        }
      >
        <MapPicker
          initial={point ?? initial}
          onPick={(picked) => {
            setPoint(picked);
            setTypedName(undefined);
          }}
        />
      </Suspense>
      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-name`}>{intl.formatMessage({ id: "places.form.name" })}</Label>
        <Input
          id={`${id}-name`}
          value={name}
          maxLength={PlaceLimits.nameMaxLength}
          autoComplete="off"
          disabled={point === null || looking}
          onChange={(event) => setTypedName(event.target.value)}
          aria-describedby={`${id}-where`}
        />
        <p id={`${id}-where`} role="status" className="text-xs text-muted-foreground">
          {point === null
            ? intl.formatMessage({ id: "places.mapDialog.noPoint" })
            : looking
              ? intl.formatMessage({ id: "places.mapDialog.looking" })
              : [known && countryName(known.country_code, intl), formatCoordinates(point, intl)].filter(Boolean).join(" · ")}
        </p>
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          {intl.formatMessage({ id: "common.cancel" })}
        </Button>
        <Button
          type="button"
          disabled={point === null || looking || name.trim() === ""}
          onClick={() => {
            if (!point) return;
            used.current = true;
            onUse({
              name: name.trim(),
              latitude: point.latitude,
              longitude: point.longitude,
              country_code: known?.country_code ?? null,
            });
          }}
        >
          {intl.formatMessage({ id: "places.form.usePlace" })}
        </Button>
      </DialogFooter>
    </DialogContent>
  );
}
