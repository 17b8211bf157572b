import pLimit, { type LimitFunction } from "p-limit";

/** Runs at most `max` tasks at once; the rest wait in order. */
export class ConcurrencyLimit {
  private readonly limit: LimitFunction;

  constructor(max: number) {
    this.limit = pLimit(max);
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    return this.limit(task);
  }
}
