/**
 * The skeleton every stage shares: its logger, its counters, the stage-start / progress / stage-end
 * events, the polite stop (the first abort) and the commit-or-abort of a store update session. A stage
 * creates one StageRun and reads as its story; what a stop or a failure does to the stores is said here
 * once, as Nutch's jobs share one Job.waitForCompletion().
 */
import type { Logger } from '../log.js';
import type { Configuration } from '../config/configuration.js';
import type { NutchContext } from './context.js';
import { count, isPoliteStop, type Counters, type ProgressEvent, type StageName, type StageOptions } from './progress.js';

/** What a store update session offers the skeleton (CrawlDbUpdate, LinkDbUpdate). */
export interface UpdateSession {
  commit(): Promise<void>;
  abort(): Promise<void>;
}

/** The error a stage throws at its next check once its signal is aborted: a polite stop, not a failure. */
export function stopError(stage: StageName): Error {
  const err = new Error(`${stage} stopped`);
  err.name = 'AbortError';
  return err;
}

/** Throws the stage's polite-stop error when the signal is aborted. */
export function checkAborted(signal: AbortSignal | undefined, stage: StageName): void {
  if (signal?.aborted) throw stopError(stage);
}

export class StageRun {
  readonly log: Logger;
  readonly conf: Configuration;
  readonly signal: AbortSignal | undefined;
  private readonly started = Date.now();

  constructor(ctx: NutchContext, readonly stage: StageName, private readonly opts: StageOptions = {}, readonly counters: Counters = {}) {
    this.log = ctx.log.child({ stage });
    this.conf = ctx.conf;
    this.signal = opts.signal;
  }

  /** True once the first abort asked for a polite stop. */
  get stopping(): boolean {
    return !!this.signal?.aborted;
  }

  /** Milliseconds since the stage started. */
  get elapsed(): number {
    return Date.now() - this.started;
  }

  emit(e: ProgressEvent): void {
    this.opts.onProgress?.(e);
  }

  start(args: Record<string, unknown>): void {
    this.emit({ type: 'stage-start', stage: this.stage, args });
  }

  /** A progress event carrying a snapshot of the counters. */
  progress(done: number, total?: number, counters: Counters = this.counters): void {
    this.emit(total === undefined
      ? { type: 'progress', stage: this.stage, done, counters: { ...counters } }
      : { type: 'progress', stage: this.stage, done, total, counters: { ...counters } });
  }

  count(name: string, by = 1): void {
    count(this.counters, name, by);
  }

  /** Throws the polite-stop error once the signal is aborted (caught by inSession / isStop). */
  checkAborted(): void {
    checkAborted(this.signal, this.stage);
  }

  /** Is `err` this stage's own polite stop? */
  isStop(err: unknown): boolean {
    return isPoliteStop(err, this.signal);
  }

  /**
   * Runs `work` in an update session that commits when it returns and aborts when it throws. A polite
   * stop (checkAborted inside `work`) aborts too, counts `stopped` and logs `stoppedMessage`: the store
   * stays as it was and the stage returns normally. Returns whether the session committed.
   */
  async inSession<S extends UpdateSession>(begin: () => Promise<S>, work: (session: S) => Promise<void>, stoppedMessage: string): Promise<boolean> {
    let session: S | undefined;
    try {
      session = await begin();
      await work(session);
      await session.commit();
      session = undefined;
      return true;
    } catch (err) {
      await session?.abort();
      if (!this.isStop(err)) throw err;
      this.count('stopped');
      this.log.warn(stoppedMessage);
      return false;
    }
  }

  /** Logs the summary (given the elapsed ms), emits stage-end and returns the counters. */
  finish(summary?: (ms: number) => string, counters: Counters = this.counters): Counters {
    const ms = this.elapsed;
    if (summary) this.log.info(summary(ms));
    this.emit({ type: 'stage-end', stage: this.stage, counters, ms });
    return counters;
  }
}

/** Nutch's "k=v k=v" counter line, for the finish summaries. */
export function formatCounters(counters: Counters): string {
  return Object.entries(counters).map(([k, v]) => `${k}=${v}`).join(' ');
}
