interface Batch<V> {
  load: () => Promise<V>;
  promise: Promise<V>;
  resolve: (value: V) => void;
  reject: (reason: unknown) => void;
}

interface KeyState<V> {
  /** A read of this key is on its way. */
  running: boolean;
  /** The callers waiting for the next read of this key; it has not been sent yet. */
  waiting: Batch<V> | undefined;
}

/**
 * Lets concurrent requests share one read of the same thing without any of them getting an
 * answer older than its own arrival. A caller joins only a read that has not been sent yet; reads
 * of a key are sent one at a time, at the end of the event-loop turn (`setImmediate`), so every
 * request parsed in that turn, or arriving while the previous read was on its way, shares the
 * next one. A caller thus always gets a read sent after it asked, exactly as if it had read
 * alone, while under load a burst of requests costs a few reads instead of one each.
 *
 * For the read every authenticated request makes (the member check), where each read costs a
 * round trip and, on PostgreSQL, the server's CPU.
 */
export class SharedReads<V> {
  private readonly keys = new Map<string, KeyState<V>>();

  read(key: string, load: () => Promise<V>): Promise<V> {
    let state = this.keys.get(key);
    if (!state) {
      state = { running: false, waiting: undefined };
      this.keys.set(key, state);
    }
    if (!state.waiting) {
      state.waiting = deferred(load);
      if (!state.running) this.sendSoon(key, state);
    }
    return state.waiting.promise;
  }

  private sendSoon(key: string, state: KeyState<V>): void {
    setImmediate(() => this.send(key, state));
  }

  private send(key: string, state: KeyState<V>): void {
    const batch = state.waiting;
    if (!batch) return;
    state.waiting = undefined;
    state.running = true;
    const settled = () => {
      state.running = false;
      if (state.waiting) this.sendSoon(key, state);
      else this.keys.delete(key);
    };
    // Through a promise, so a load that throws fails its batch like one that rejects.
    Promise.resolve().then(batch.load).then(batch.resolve, batch.reject).then(settled, settled);
  }
}

function deferred<V>(load: () => Promise<V>): Batch<V> {
  let resolve!: (value: V) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<V>((onValue, onError) => {
    resolve = onValue;
    reject = onError;
  });
  return { load, promise, resolve, reject };
}
