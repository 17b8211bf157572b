import { createHash } from "node:crypto";
import path from "node:path";
import { expect } from "vitest";
import type { Engine } from "../src/db/database";

/**
 * How much of each matrix a run takes. CI's run (`npm test`) takes a share that covers every part
 * once; `npm run test:full` (TEST_MATRIX=full) takes every combination, for a change to a part's
 * seams (storage, an engine, the API's validation) and before a release (ADR 0074).
 */
export const fullMatrix = process.env.TEST_MATRIX === "full";

/** The day of the year (UTC), which turns the shares that rotate so that a few days of CI cover all. */
export const dayOfYear = Math.floor((Date.now() - Date.UTC(new Date().getUTCFullYear(), 0, 1)) / 86_400_000);

/** The engines this run can test: SQLite always, PostgreSQL when TEST_DATABASE_URL names a server (CI sets it). */
export const availableEngines: readonly Engine[] = process.env.TEST_DATABASE_URL ? ["sqlite", "postgres"] : ["sqlite"];

const repositoryRoot = path.resolve(import.meta.dirname, "../../..");

/**
 * The engines the calling test file's database suites run on: `describe.each(testEngines())`.
 * The full matrix takes every available engine. Otherwise a file takes one, chosen by its path and
 * the day: each run puts about half the files on each engine, and the next day swaps them, so two
 * days of CI run every suite on both (the SQL itself lives in repositories, which every suite
 * reaches; the engines differ in nothing above them). Suites about an engine's own behaviour, or
 * about moving between engines, ask `availableEngines` instead.
 */
export function testEngines(): Engine[] {
  if (fullMatrix || availableEngines.length === 1) return [...availableEngines];
  const testPath = expect.getState().testPath;
  if (!testPath) throw new Error("testEngines() is called while a test file is collected");
  const fileHash = createHash("sha256").update(path.relative(repositoryRoot, testPath)).digest().readUInt32BE(0);
  return [availableEngines[(fileHash + dayOfYear) % availableEngines.length]!];
}

/**
 * Engine and storage pairs for suites that read and write photos: each engine once, the last one
 * (PostgreSQL when it runs) on S3 and the others on local disk; the full matrix takes every pair.
 * Storage and engine meet nowhere but in these suites' set-up, so each part is covered either way.
 */
export function engineStorageCombinations<const S3 extends string>(s3: S3): (readonly [Engine, "local disk" | S3])[] {
  return availableEngines.flatMap((engine) => [
    ...(fullMatrix || engine !== availableEngines.at(-1) ? [[engine, "local disk"] as const] : []),
    ...(fullMatrix || engine === availableEngines.at(-1) ? [[engine, s3] as const] : []),
  ]);
}

/** Whether the `index`th of many checks is in this run's share: all in the full matrix, else one in `parts` by the day. */
export function inTodaysShare(index: number, parts: number): boolean {
  return fullMatrix || index % parts === dayOfYear % parts;
}
