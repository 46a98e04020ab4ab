/**
 * Worker threads kept for the next user instead of ended: a stage opens a SQLite session or an index
 * writer, closes it, and the next one (the crawl loop's next round, the clean after index) takes the
 * same thread, so it does not pay a thread's start-up and module loading again. A parked thread is
 * unreferenced (it never keeps the process alive) and ends after `idleMs` unused; at most `maxIdle`
 * wait. One pool per kind of thread, since each runs its own source.
 */
import { Worker } from 'node:worker_threads';

export interface IdleThreadsOptions {
  /** How long a parked thread waits for its next user before it ends (ms). */
  idleMs: number;
  /** Threads kept waiting at most; one more is ended instead of parked. */
  maxIdle: number;
}

export class IdleThreads {
  private readonly idle: { worker: Worker; timer: NodeJS.Timeout; drop: () => void }[] = [];

  constructor(private readonly start: () => Worker, private readonly opts: IdleThreadsOptions) {}

  /** A parked thread (referenced again), else a new one. */
  take(): Worker {
    const entry = this.idle.pop();
    if (!entry) return this.start();
    clearTimeout(entry.timer);
    entry.worker.off('exit', entry.drop);
    entry.worker.off('error', entry.drop);
    entry.worker.ref();
    return entry.worker;
  }

  /** Gives a thread back, its user done with it and nothing of the user's left in flight. */
  park(worker: Worker): void {
    if (this.idle.length >= this.opts.maxIdle) {
      void worker.terminate();
      return;
    }
    const drop = () => {
      const i = this.idle.indexOf(entry);
      if (i >= 0) this.idle.splice(i, 1);
      clearTimeout(entry.timer);
      void worker.terminate();
    };
    const entry = { worker, drop, timer: setTimeout(drop, this.opts.idleMs).unref() };
    // an idle thread that dies (it should not) is simply forgotten
    worker.once('exit', drop);
    worker.on('error', drop);
    worker.unref();
    this.idle.push(entry);
  }

  /** Threads waiting now (tests). */
  get size(): number {
    return this.idle.length;
  }
}
