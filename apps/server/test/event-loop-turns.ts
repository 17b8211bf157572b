/**
 * How many turns the event loop took while `work` ran, counted by a callback that queues itself
 * with `setImmediate`. Work that holds the loop (a synchronous driver's statements, however many
 * awaits between them) lets none through; work that runs elsewhere lets many.
 */
export async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number; ms: number }> {
  let turns = 0;
  let counting = true;
  const count = () => {
    if (!counting) return;
    turns += 1;
    setImmediate(count);
  };
  setImmediate(count);
  const started = performance.now();
  try {
    const result = await work();
    return { result, turns, ms: performance.now() - started };
  } finally {
    counting = false;
  }
}
