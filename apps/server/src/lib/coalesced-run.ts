/**
 * Runs `work` one pass at a time, for the runners that look for due rows (media jobs, the push
 * outbox): a wake while a pass runs asks for one more pass after it, never a second pass at once,
 * so a burst of wakes (a poll, an enqueue, a finished row) costs at most one extra look.
 */
export class CoalescedRun {
  private pass: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly work: () => Promise<void>,
    /** A pass that failed (the database unreachable for now): the next wake tries again. */
    private readonly onError: (error: unknown) => void,
  ) {}

  wake(): void {
    if (this.pass) {
      this.again = true;
      return;
    }
    this.pass = this.work()
      .catch(this.onError)
      .finally(() => {
        this.pass = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** The pass under way, if any (a stop waits for it). */
  get current(): Promise<void> | undefined {
    return this.pass;
  }
}
