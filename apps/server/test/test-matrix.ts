import type { Engine } from "../src/db/database";
import { testEngines } from "./test-database";

/**
 * How much of each matrix a run takes. CI's run (`npm test`) takes a share that covers every part
 * once; `npm run test:full` (TEST_MATRIX=full) takes every combination, for a change to a part's
 * seams (storage, an engine, the API's validation) and before a release.
 */
export const fullMatrix = process.env.TEST_MATRIX === "full";

/** The day of the year (UTC), which turns the shares that rotate so that a few days of CI cover all. */
export const dayOfYear = Math.floor((Date.now() - Date.UTC(new Date().getUTCFullYear(), 0, 1)) / 86_400_000);

/**
 * Engine and storage pairs for suites that read and write photos: each engine once, the last one
 * (PostgreSQL when it runs) on S3 and the others on local disk; the full matrix takes every pair.
 * Storage and engine meet nowhere but in these suites' set-up, so each part is covered either way.
 */
export function engineStorageCombinations<const S3 extends string>(s3: S3): (readonly [Engine, "local disk" | S3])[] {
  return testEngines.flatMap((engine) => [
    ...(fullMatrix || engine !== testEngines.at(-1) ? [[engine, "local disk"] as const] : []),
    ...(fullMatrix || engine === testEngines.at(-1) ? [[engine, s3] as const] : []),
  ]);
}

/** Whether the `index`th of many checks is in this run's share: all in the full matrix, else one in `parts` by the day. */
export function inTodaysShare(index: number, parts: number): boolean {
  return fullMatrix || index % parts === dayOfYear % parts;
}
