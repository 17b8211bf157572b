/**
 * What of the journeys' matrices a run takes. `npm run test:full` (TEST_MATRIX=full) takes every
 * layout and language; CI's run (`npm test`) one share, turned by the day, so that a few days of CI
 * cover them all.
 */
export const fullMatrix = process.env.TEST_MATRIX === "full";

// The run's day, fixed once by scripts/test-e2e.mjs (E2E_RUN_DAY): the runner and its workers each
// read the specs, and a run across midnight would otherwise list one share's test and run another.
const now = process.env.E2E_RUN_DAY ? new Date(`${process.env.E2E_RUN_DAY}T12:00:00Z`) : new Date();
export const dayOfYear = Math.floor(
  (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - Date.UTC(now.getUTCFullYear(), 0, 0)) / 86_400_000,
);

/** Every choice in the full matrix; otherwise the day's one. */
export function todaysShare<T>(choices: readonly T[]): T[] {
  return fullMatrix ? [...choices] : [choices[dayOfYear % choices.length]!];
}
