import { useId } from "react";
import type { MemoryTimelineQuery } from "@memory-box/contract";
import { XIcon } from "lucide-react";

import { Button } from "@/components/ui/button";
import { useCountries } from "@/features/places/api/countries";
import { countryName, formatCoordinates, pointOfNear } from "@/features/places/utils/place-names";
import { useIntl, type AppIntl } from "@/lib/intl";

/**
 * Home's place filters beside the tag filter: the countries the collection has memories in (named
 * in the reader's language, with their counts), and a chip for each place filter in force ("Near
 * Sintra", "In Portugal", "In this area", "At Sintra") that clears it. Nothing while there is
 * neither, so a collection without places looks as it always did.
 */

export function PlaceFilters({
  filter,
  nearName,
  onChange,
}: {
  filter: PlaceFilter;
  /** The name of the place `near` is near, when the link that set it gave one. */
  nearName: string;
  onChange: (key: keyof PlaceFilter, value: string) => void;
}) {
  const intl = useIntl();
  const id = useId();
  const countries = useCountries().data?.countries ?? [];
  const active = chipKeys.filter((key) => filter[key]);
  if (countries.length === 0 && active.length === 0) return null;

  return (
    <div className="flex flex-wrap items-center gap-2">
      {countries.length > 0 && (
        <>
          <label htmlFor={`${id}-country`} className="sr-only">
            {intl.formatMessage({ id: "places.filter.country" })}
          </label>
          <select
            id={`${id}-country`}
            value={filter.country ?? ""}
            onChange={(event) => onChange("country", event.target.value)}
            className="h-8 rounded-md border border-input bg-background px-2 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 dark:bg-input/30"
          >
            <option value="">{intl.formatMessage({ id: "places.filter.allCountries" })}</option>
            {countries.map(({ country_code, count }) => (
              <option key={country_code} value={country_code}>
                {intl.formatMessage({ id: "places.filter.countryOption" }, { country: countryName(country_code, intl), count })}
              </option>
            ))}
          </select>
        </>
      )}
      {active.map((key) => {
        const label = chipLabel(key, filter[key]!, nearName, intl);
        return (
          <Button
            key={key}
            type="button"
            size="sm"
            variant="secondary"
            aria-label={intl.formatMessage({ id: "places.filter.clear" }, { filter: label })}
            onClick={() => onChange(key, "")}
          >
            <bdi>{label}</bdi>
            <XIcon aria-hidden="true" />
          </Button>
        );
      })}
    </div>
  );
}

/** The list's place filters, as the API takes them. */
type PlaceFilter = Pick<MemoryTimelineQuery, "country" | "place" | "within" | "near">;

/** The chips' order. */
const chipKeys = ["near", "place", "country", "within"] as const satisfies readonly (keyof PlaceFilter)[];

function chipLabel(key: keyof PlaceFilter, value: string, nearName: string, intl: AppIntl): string {
  switch (key) {
    case "country":
      return intl.formatMessage({ id: "places.filter.inCountry" }, { country: countryName(value, intl) });
    case "place":
      return intl.formatMessage({ id: "places.filter.atPlace" }, { place: value });
    case "within":
      return intl.formatMessage({ id: "places.filter.inArea" });
    case "near": {
      const point = pointOfNear(value);
      const place = nearName || (point ? formatCoordinates(point, intl) : value);
      return intl.formatMessage({ id: "places.filter.near" }, { place });
    }
  }
}
