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
 */
export class SharedReads<K, V> {
  /** The callers of the batch not sent yet, by key. */
  private waiting: Map<K, Waiting<V>> | undefined;
  /** A batch is on its way, or about to be sent. */
  private busy = false;

  /** `loadMany` answers the keys it finds; a key it leaves out reads as undefined. */
  constructor(private readonly loadMany: (keys: K[]) => Promise<Map<K, V>>) {}

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
    const settled = () => {
      if (this.waiting) this.sendSoon();
      else this.busy = false;
    };
    // Through a promise, so a load that throws fails its batch like one that rejects.
    Promise.resolve()
      .then(() => this.loadMany([...batch.keys()]))
      .then(
        (values) => {
          for (const [key, entry] of batch) entry.resolve(values.get(key));
        },
        (error: unknown) => {
          for (const entry of batch.values()) entry.reject(error);
        },
      )
      .then(settled, settled);
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
