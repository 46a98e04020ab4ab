/**
 * Event-loop hygiene for the synchronous SQLite driver: work is cut into chunks and the loop gets a
 * turn (setImmediate) between them, so no single synchronous block outlasts a few milliseconds.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Rows written per synchronous step; a few ms of SQLite work even on a large, cold database. */
export const WRITE_CHUNK = 250;

/** Runs fn over slices of items, yielding between slices. */
export async function inChunks<T>(items: readonly T[], size: number, fn: (slice: readonly T[]) => void): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    if (i > 0) await yieldToEventLoop();
    fn(items.length <= size ? items : items.slice(i, i + size));
  }
}

/**
 * Time slicing for per-record CPU work (URL filters, normalisers, scoring): due() turns true once
 * `budgetMs` have passed since the last turn given to the event loop.
 */
export class TimeSlice {
  private last = performance.now();

  constructor(private readonly budgetMs = 10) {}

  due(): boolean {
    return performance.now() - this.last >= this.budgetMs;
  }

  async yield(): Promise<void> {
    await yieldToEventLoop();
    this.last = performance.now();
  }

  /** Yields when the budget is spent. */
  async tick(): Promise<void> {
    if (this.due()) await this.yield();
  }
}
