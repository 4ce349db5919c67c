/** What a `PollingWorker` runs, how often, and what it does with a failed pass. */
export interface PollingWorkerOptions {
  /** Time between the end of one pass and the start of the next. */
  intervalMs: number;
  /** One pass over whatever is waiting (reports to retry, texts to send, a billing cycle). */
  pass: () => Promise<unknown>;
  /** A failed pass is reported here and the next one runs as scheduled. */
  onError: (error: unknown) => void;
  /** Run the first pass at `start()` rather than one interval later. */
  passAtStart?: boolean;
}

/**
 * A background loop for a service: one pass at a time, the next one `intervalMs` after the last ended, and
 * `kick()` for "now" (right after a commit that made work). Started in `onApplicationBootstrap`, stopped in
 * `beforeApplicationShutdown`, which waits for the pass under way so nothing runs once NATS and the database close.
 */
export class PollingWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;
  private stopped = true;

  constructor(private readonly options: PollingWorkerOptions) {}

  start(): void {
    this.stopped = false;
    if (this.options.passAtStart) void this.kick();
    else this.schedule();
  }

  /**
   * Runs a pass now. Resolves after a pass that began after this call, so a caller that has just committed work
   * can wait for it; calls during a pass share one more pass after it (that pass may have read before the commit).
   */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (!this.running) {
      clearTimeout(this.timer);
      this.running = Promise.resolve()
        .then(() => this.options.pass())
        .then(
          () => undefined,
          (error: unknown) => this.options.onError(error),
        )
        .finally(() => {
          this.running = undefined;
          this.schedule();
        });
      return this.running;
    }
    this.queued ??= this.running.then(() => {
      this.queued = undefined;
      return this.kick();
    });
    return this.queued;
  }

  /** No pass starts from now on; resolves when the one under way (and one queued by `kick()`) has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.queued;
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.kick(), this.options.intervalMs);
    this.timer.unref();
  }
}
