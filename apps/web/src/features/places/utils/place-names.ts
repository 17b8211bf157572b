import type { GeoPoint } from "@memory-box/contract";

import type { AppIntl } from "@/lib/intl";

const regionNames = new Map<string, Intl.DisplayNames | null>();
const coordinateFormats = new Map<string, Intl.NumberFormat>();

/** A country's name in the reader's language ("PT" → "Portugal", "Portugal" in German too); the code itself where `Intl` has none. */
export function countryName(code: string, intl: AppIntl): string {
  let names = regionNames.get(intl.intlLocale);
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames(intl.intlLocale, { type: "region", fallback: "code" });
    } catch {
      names = null;
    }
    regionNames.set(intl.intlLocale, names);
  }
  try {
    return names?.of(code) ?? code;
  } catch {
    // Not a well-formed region code: shown as it came.
    return code;
  }
}

/** "Sintra, Portugal": a place's name with its country's, or the name alone without a country. */
export function placeLabel(name: string, countryCode: string | null | undefined, intl: AppIntl): string {
  return countryCode
    ? intl.formatMessage({ id: "places.nameInCountry" }, { name, country: countryName(countryCode, intl) })
    : name;
}

/** "38.80° N, 9.38° W": a point in the reader's number format, to two decimals (about a kilometre). */
export function formatCoordinates(point: GeoPoint, intl: AppIntl): string {
  let format = coordinateFormats.get(intl.intlLocale);
  if (!format) {
    format = new Intl.NumberFormat(intl.intlLocale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    coordinateFormats.set(intl.intlLocale, format);
  }
  return intl.formatMessage(
    { id: "places.coordinates" },
    {
      latitude: format.format(Math.abs(point.latitude)),
      latitudeSide: point.latitude < 0 ? "south" : "north",
      longitude: format.format(Math.abs(point.longitude)),
      longitudeSide: point.longitude < 0 ? "west" : "east",
    },
  );
}

/** `latitude,longitude` as the list's `near` filter takes it. */
export function nearParam(point: GeoPoint): string {
  return `${point.latitude.toFixed(5)},${point.longitude.toFixed(5)}`;
}

/** The point of a `near` filter, or undefined when it is not one. */
export function pointOfNear(near: string): GeoPoint | undefined {
  const [latitude, longitude] = near.split(",").map(Number);
  return latitude !== undefined && longitude !== undefined && Number.isFinite(latitude) && Number.isFinite(longitude)
    ? { latitude, longitude }
    : undefined;
}
