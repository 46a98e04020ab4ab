/**
 * Turns a callback-driven run (stages report through onProgress) into an async iterable of events.
 * Events are small and a crawl emits a bounded number per page, so buffering is plain.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  private readonly buffer: T[] = [];
  private waiting: { resolve(r: IteratorResult<T>): void; reject(err: unknown): void } | null = null;
  private done = false;
  private failure: { err: unknown } | null = null;

  push(value: T): void {
    if (this.done) return;
    const w = this.waiting;
    if (w) {
      this.waiting = null;
      w.resolve({ value, done: false });
    } else this.buffer.push(value);
  }

  /** Ends the stream; with an error, the consumer's next() rejects with it after the buffered events. */
  end(err?: unknown): void {
    if (this.done) return;
    this.done = true;
    if (err !== undefined) this.failure = { err };
    const w = this.waiting;
    if (w) {
      this.waiting = null;
      if (this.failure) w.reject(this.failure.err);
      else w.resolve({ value: undefined as never, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.buffer.length) return Promise.resolve({ value: this.buffer.shift()!, done: false });
        if (this.done) {
          if (this.failure) {
            const { err } = this.failure;
            this.failure = null;
            return Promise.reject(err);
          }
          return Promise.resolve({ value: undefined as never, done: true });
        }
        return new Promise<IteratorResult<T>>((resolve, reject) => {
          this.waiting = { resolve, reject };
        });
      },
      return: () => {
        this.done = true;
        this.buffer.length = 0;
        return Promise.resolve({ value: undefined as never, done: true });
      },
    };
  }
}
