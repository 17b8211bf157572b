import { useEffect, useRef, useState } from "react";
import { PlaceLimits, type GeoPoint } from "@memory-box/contract";
import { MapIcon, MapPinIcon, XIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useReversePlace } from "@/features/places/api/reverse-place";
import { MapPickDialog, type PlaceChoice } from "@/features/places/components/map-pick-dialog";
import { PlaceSearch } from "@/features/places/components/place-search";
import { countryName, formatCoordinates, placeLabel } from "@/features/places/utils/place-names";
import { useIntl } from "@/lib/intl";

export interface PlaceFieldProps {
  /** The field's id; its label points at the name (a place chosen) or the search (none). */
  id: string;
  value: PlaceChoice | null;
  onChange: (place: PlaceChoice | null) => void;
  /** Where one of the memory's photos was taken, offered while the memory has no place. */
  photoLocation: GeoPoint | null;
  disabled: boolean;
  /** The rule the place breaks (from the form's check or the server). */
  problem?: string;
  /** The name's length once it nears its limit ("180 / 200"). */
  count?: string;
}

/**
 * The memory form's "Place": nothing is set unless the member chooses. Without a place: a photo's
 * location offered ("Taken in Sintra, Portugal — use this place?"), a search over place names, and
 * "Pick on a map". With one: its name, which the member may change, and "Remove place".
 */
export function PlaceField({ id, value, onChange, photoLocation, disabled, problem, count }: PlaceFieldProps) {
  const intl = useIntl();
  const [mapOpen, setMapOpen] = useState(false);
  const nameRef = useRef<HTMLInputElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  // After a choice or a removal the focused control is gone: focus goes to what replaces it.
  const [focusNext, setFocusNext] = useState<"name" | "search">();
  useEffect(() => {
    if (focusNext === "name") nameRef.current?.focus();
    if (focusNext === "search") searchRef.current?.focus();
  }, [focusNext, value]);

  function choose(place: PlaceChoice) {
    onChange(place);
    setFocusNext("name");
  }

  const describedBy = [`${id}-where`, count !== undefined && `${id}-count`, problem !== undefined && `${id}-problem`].filter(
    Boolean,
  );

  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{intl.formatMessage({ id: "places.form.label" })}</Label>
      {value ? (
        <>
          <div className="flex flex-wrap gap-2">
            <Input
              ref={nameRef}
              id={id}
              value={value.name}
              onChange={(event) => onChange({ ...value, name: event.target.value })}
              maxLength={PlaceLimits.nameMaxLength}
              autoComplete="off"
              disabled={disabled}
              className="min-w-40 flex-1"
              aria-invalid={problem ? true : undefined}
              aria-describedby={describedBy.join(" ")}
            />
            <Button
              type="button"
              variant="outline"
              disabled={disabled}
              onClick={() => {
                onChange(null);
                setFocusNext("search");
              }}
            >
              <XIcon aria-hidden="true" />
              {intl.formatMessage({ id: "places.form.remove" })}
            </Button>
          </div>
          <p id={`${id}-where`} className="flex items-center gap-1 text-xs text-muted-foreground">
            <MapPinIcon aria-hidden="true" className="size-3 shrink-0" />
            <span>
              {[value.country_code && countryName(value.country_code, intl), formatCoordinates(value, intl)]
                .filter(Boolean)
                .join(" · ")}
            </span>
          </p>
        </>
      ) : (
        <>
          {photoLocation && <PhotoPlaceOffer point={photoLocation} disabled={disabled} onUse={choose} />}
          <PlaceSearch
            id={id}
            inputRef={searchRef}
            disabled={disabled}
            onChoose={(place) =>
              choose({
                name: place.name,
                latitude: place.latitude,
                longitude: place.longitude,
                country_code: place.country_code,
              })
            }
          />
          <div>
            <Button type="button" variant="outline" size="sm" disabled={disabled} onClick={() => setMapOpen(true)}>
              <MapIcon aria-hidden="true" />
              {intl.formatMessage({ id: "places.form.pickOnMap" })}
            </Button>
          </div>
        </>
      )}
      {(count !== undefined || problem !== undefined) && (
        <div className="flex items-start justify-between gap-2 text-xs">
          <p id={`${id}-problem`} className="text-destructive">
            {problem}
          </p>
          {count !== undefined && (
            <p id={`${id}-count`} className="shrink-0 text-muted-foreground tabular-nums">
              {count}
            </p>
          )}
        </div>
      )}
      <MapPickDialog
        open={mapOpen}
        onOpenChange={setMapOpen}
        initial={value ?? photoLocation}
        onUse={(place) => {
          setMapOpen(false);
          choose(place);
        }}
      />
    </div>
  );
}

/**
 * "Taken in Sintra, Portugal — use this place?" for a photo's location: named by the nearest
 * known place, or by its coordinates when none is near (or the lookup failed). Nothing is shown
 * while the name is looked up, so the offer does not change under the member's pointer.
 */
function PhotoPlaceOffer({
  point,
  disabled,
  onUse,
}: {
  point: GeoPoint;
  disabled: boolean;
  onUse: (place: PlaceChoice) => void;
}) {
  const intl = useIntl();
  const reverse = useReversePlace(point);
  if (reverse.isPending) return null;
  const known = reverse.data?.place ?? null;
  const coordinates = formatCoordinates(point, intl);
  return (
    <div className="flex flex-wrap items-center gap-2 rounded-md border bg-muted/50 px-3 py-2 text-sm">
      <MapPinIcon aria-hidden="true" className="size-4 shrink-0 text-muted-foreground" />
      <p className="min-w-0 flex-1">
        {known
          ? intl.formatMessage({ id: "places.form.offer" }, { place: placeLabel(known.name, known.country_code, intl) })
          : intl.formatMessage({ id: "places.form.offerCoordinates" }, { coordinates })}
      </p>
      <Button
        type="button"
        size="sm"
        variant="outline"
        disabled={disabled}
        onClick={() =>
          onUse({
            name: known ? known.name : coordinates,
            latitude: point.latitude,
            longitude: point.longitude,
            country_code: known?.country_code ?? null,
          })
        }
      >
        {intl.formatMessage({ id: "places.form.usePlace" })}
      </Button>
    </div>
  );
}
