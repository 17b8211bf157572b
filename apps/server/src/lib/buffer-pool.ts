/**
 * Buffers of one size, taken and given back, for copies of gigabytes (the export reads every
 * photo). A fresh 1 MiB buffer per read is memory V8 counts as external, and every 64 MB of it
 * set off a full garbage collection of the process's heap: on a running server, seconds per
 * 2 GB exported. A buffer may only be given back once nothing reads its bytes any more.
 */
export class BufferPool {
  private readonly free: Buffer[] = [];
  /** Handed out and not yet back: only these are taken back, each once. Weak: one never returned is simply collected. */
  private readonly lent = new WeakSet<ArrayBuffer>();

  constructor(
    readonly size: number,
    /** Most buffers kept for reuse; more than that in flight at once are allocated and dropped. */
    private readonly keep = 32,
  ) {}

  take(): Buffer {
    const buffer = this.free.pop() ?? Buffer.allocUnsafeSlow(this.size);
    this.lent.add(buffer.buffer as ArrayBuffer);
    return buffer;
  }

  /**
   * Gives back the buffer `chunk` was read into (any view of it). A chunk from elsewhere, or a
   * buffer already given back, is ignored: the same buffer can never be handed out twice.
   */
  release(chunk: Buffer): void {
    const memory = chunk.buffer as ArrayBuffer;
    if (!this.lent.has(memory)) return;
    this.lent.delete(memory);
    if (this.free.length < this.keep) this.free.push(Buffer.from(memory, 0, this.size));
  }
}
