/**
 * The stages running on a NutchContext. Each run gets a signal that the caller's signal and the
 * context's close() both abort; close() asks every running stage for a polite stop and waits until
 * each has committed what it finished, before the plugins it uses are stopped (as avvio's close queue).
 */
import { NutchError } from '../errors.js';
import type { StageOptions } from './progress.js';

export class StageActivity {
  private readonly running = new Set<{ controller: AbortController; done: Promise<unknown> }>();
  private closing = false;

  get size(): number {
    return this.running.size;
  }

  /** Runs `fn` as one tracked stage run; refused once the context is closing. */
  async run<R>(opts: StageOptions, fn: (opts: StageOptions) => Promise<R>): Promise<R> {
    if (this.closing) throw new NutchError('NUTCH_CLOSED', 'This crawler was closed; create a new one with createNutch().');
    const controller = new AbortController();
    const signal = opts.signal ? AbortSignal.any([controller.signal, opts.signal]) : controller.signal;
    const done = fn({ ...opts, signal });
    const entry = { controller, done };
    this.running.add(entry);
    try {
      return await done;
    } finally {
      this.running.delete(entry);
    }
  }

  /** Stops every running stage politely and waits for each to end (its own failure is its caller's). */
  async stopAll(): Promise<void> {
    this.closing = true;
    const runs = [...this.running];
    for (const r of runs) r.controller.abort();
    await Promise.allSettled(runs.map((r) => r.done));
  }
}
