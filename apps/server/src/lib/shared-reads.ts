import { AppError } from "../errors";

interface Waiting<V> {
  promise: Promise<V | undefined>;
  resolve: (value: V | undefined) => void;
  reject: (reason: unknown) => void;
}

/**
 * Lets concurrent requests share their reads without any of them getting an answer older than
 * its own arrival. Callers ask for keys; the keys asked for during one event-loop turn, or while
 * the previous batch was on its way, are read together by one `loadMany` call, sent at the end of
 * the turn (`setImmediate`), one batch at a time. A caller joins only a batch that has not been
 * sent yet, so its answer was always read after it asked, exactly as if it had read alone; under
 * load, a burst of requests costs a few reads instead of one each.
 *
 * For the read every authenticated request makes (the member check), where each read costs a
 * round trip and, on PostgreSQL, the server's CPU.
 *
 * A batch that takes longer than `timeoutMs` (a connection stuck on a dead network, a lock held
 * too long) fails its own callers with `service_unavailable` and the next batch starts at once;
 * whatever the stuck read answers later is dropped. One stuck read never stalls every request.
 */
export class SharedReads<K, V> {
  /** The callers of the batch not sent yet, by key. */
  private waiting: Map<K, Waiting<V>> | undefined;
  /** A batch is on its way, or about to be sent. */
  private busy = false;

  private readonly timeoutMs: number;
  private readonly describe: string;

  /** `loadMany` answers the keys it finds; a key it leaves out reads as undefined. */
  constructor(
    private readonly loadMany: (keys: K[]) => Promise<Map<K, V>>,
    options: { timeoutMs?: number; describe?: string } = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.describe = options.describe ?? "shared read";
  }

  read(key: K): Promise<V | undefined> {
    if (!this.waiting) {
      this.waiting = new Map();
      if (!this.busy) this.sendSoon();
    }
    let entry = this.waiting.get(key);
    if (!entry) {
      entry = waiting<V>();
      this.waiting.set(key, entry);
    }
    return entry.promise;
  }

  private sendSoon(): void {
    this.busy = true;
    setImmediate(() => this.send());
  }

  private send(): void {
    const batch = this.waiting ?? new Map<K, Waiting<V>>();
    this.waiting = undefined;
    let settled = false;
    /** Ends this batch once, by its answer or by its time limit, whichever comes first. */
    const settle = (answer: (entry: Waiting<V>, key: K) => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (const [key, entry] of batch) answer(entry, key);
      if (this.waiting) this.sendSoon();
      else this.busy = false;
    };
    const timer = setTimeout(() => {
      const timedOut = new AppError("service_unavailable", {
        message: `The ${this.describe} took longer than ${this.timeoutMs} ms.`,
      });
      settle((entry) => entry.reject(timedOut));
    }, this.timeoutMs);
    timer.unref();
    // Through a promise, so a load that throws fails its batch like one that rejects.
    Promise.resolve()
      .then(() => this.loadMany([...batch.keys()]))
      .then(
        (values) => settle((entry, key) => entry.resolve(values.get(key))),
        (error: unknown) => settle((entry) => entry.reject(error)),
      );
  }
}

function waiting<V>(): Waiting<V> {
  let resolve!: (value: V | undefined) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<V | undefined>((onValue, onError) => {
    resolve = onValue;
    reject = onError;
  });
  return { promise, resolve, reject };
}
