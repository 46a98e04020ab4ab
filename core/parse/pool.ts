/**
 * The parse worker pool (DESIGN §6): `parser.worker.threads` worker threads (0 = `defaultSize`: one per
 * core, or one per core but the first for the fetcher's inline parse — see inline-parse.ts), each
 * with its own plugin repository built from a configuration snapshot, each parsing one Content at a
 * time with the next one already in its inbox (PIPELINE_DEPTH): a worker never waits for a message
 * round trip between pages, and is rarely woken from idle. Content bytes are copied into a fresh
 * buffer and transferred, or, when the caller lends them (ParseRequest.lendBytes) and the page goes
 * to an idle worker, moved there and back with the answer, so a 50 MB document is not held twice. `parser.timeout` (timed from when the worker starts the page, i.e. when the
 * page before it is answered) really abandons a runaway parse: the worker is terminated and replaced,
 * the page gets a FAILED parse, the page queued behind it goes back to the front of the queue, the
 * stage goes on. A worker that crashes fails only the page it was parsing. Memory: a big document
 * (BIG_DOCUMENT_BYTES) goes only to an idle worker and only while no other big one is being parsed,
 * and a worker left holding more than RETIRE_BUFFER_BYTES after a page is replaced. A worker that cannot start
 * (a plugin's start() throws) fails the pool: ready() and every parse() reject with the worker's error.
 */
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { NutchError, errorMessage } from '../errors.js';
import type { Configuration } from '../config/configuration.js';
import type { Logger, LogLevel } from '../log.js';
import type { PluginRepository } from '../plugin/plugin-repository.js';
import type { Content } from '../model/content.js';
import { ParseStatusMinor, failedParse, singleParseResult } from '../model/parse.js';
import type { ParseOutcome } from './parse-util.js';
import type { FromWorker, ToWorker, WorkerInit } from './worker-protocol.js';
import { createWorker, workerStartError } from './worker-spawn.js';

export interface ParsePoolOptions {
  conf: Configuration;
  plugins: PluginRepository;
  log: Logger;
  /** What workers forward to `log` (they drop lower levels before crossing threads); default 'debug': the logger filters. */
  logLevel?: LogLevel;
  /** Worker threads; default `parser.worker.threads`, 0 = `defaultSize`. */
  size?: number;
  /** Worker threads when `parser.worker.threads` is 0; default one per core. */
  defaultSize?: number;
  /** Per-parse limit in ms; default `parser.timeout` seconds (-1 none). */
  timeoutMs?: number;
}

export interface ParseRequest {
  /** Parse as this content type instead of the content's own (parsechecker -forceAs). */
  forceAs?: string;
  /**
   * The caller lends `content.content`: when the page goes to an idle worker and the bytes own their
   * whole buffer, they are moved to the worker instead of copied and put back in `content.content`
   * with the answer. Meanwhile `content.content` is empty, and it stays empty when the worker is lost
   * on this page (parser.timeout, a crash): for callers that no longer need the bytes after a failed
   * parse (the parse stage, which reads them from the segment). A page queued behind another is copied.
   */
  lendBytes?: boolean;
}

interface Job {
  id: number;
  content: Content;
  /** content.content's length when queued (the bytes may be lent away meanwhile). */
  bytes: number;
  forceAs?: string;
  lendBytes?: boolean;
  resolve(o: ParseOutcome): void;
  reject(e: unknown): void;
}

interface Slot {
  worker: Worker;
  state: 'starting' | 'live' | 'dead';
  /** Jobs sent to the worker, in order: the first is being parsed, the rest wait in its inbox. */
  jobs: Job[];
  timer?: NodeJS.Timeout;
  ready: Promise<void>;
  /** Rejects `ready` (a no-op once it settled). */
  failReady(e: Error): void;
}

/** Jobs in flight per worker: the one being parsed and the next. */
const PIPELINE_DEPTH = 2;
/** Content at least this long is a big document: one at a time in the pool, never queued in a worker. */
export const BIG_DOCUMENT_BYTES = 8 * 1024 * 1024;
const isBig = (job: Job) => job.bytes >= BIG_DOCUMENT_BYTES;

export class ParsePool {
  readonly size: number;
  readonly timeoutMs: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly init: WorkerInit;
  private readonly log: Logger;
  private nextId = 1;
  private initError: Error | null = null;
  private closed = false;
  /** Counts, for the stage's counters and for tests. */
  readonly stats = { parsed: 0, timeouts: 0, crashes: 0, workersStarted: 0, collections: 0, retired: 0 };

  constructor(opts: ParsePoolOptions) {
    const configured = opts.size ?? opts.conf.getInt('parser.worker.threads', 0);
    this.size = Math.max(1, configured > 0 ? configured : opts.defaultSize ?? availableParallelism());
    const seconds = opts.conf.getInt('parser.timeout', 30);
    this.timeoutMs = opts.timeoutMs ?? (seconds < 0 ? -1 : seconds * 1000);
    this.log = opts.log;
    const plugins = opts.plugins.descriptors.filter((d) => d.root && d.source !== 'object' && opts.plugins.isActive(d.id));
    this.init = { conf: opts.conf.snapshot(), plugins, logLevel: opts.logLevel ?? 'debug' };
  }

  /**
   * Starts workers until `workers` of them (default: all `size`) are running or starting, and waits
   * until every started one has loaded and started its plugins; rejects when they fail. With fewer,
   * the others start as pages queue up (pump): a stage over a 2-page segment need not pay for a
   * second worker (~0.3 CPU-s each), and a plugin that cannot start still fails the first one.
   */
  async ready(workers = this.size): Promise<void> {
    if (this.initError) throw this.initError;
    this.ensureOpen();
    while (this.slots.filter((s) => s.state !== 'dead').length < Math.min(workers, this.size)) this.spawn();
    await Promise.all(this.slots.map((s) => s.ready));
    if (this.initError) throw this.initError;
    this.ensureOpen();
  }

  parse(content: Content, request: ParseRequest = {}): Promise<ParseOutcome> {
    // closed first: a pool whose early-started workers failed and that was then closed says closed
    try {
      this.ensureOpen();
    } catch (err) {
      return Promise.reject(err);
    }
    if (this.initError) return Promise.reject(this.initError);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, content, bytes: content.content.length, forceAs: request.forceAs, lendBytes: request.lendBytes, resolve, reject });
      this.pump();
    });
  }

  /**
   * A full garbage collection in every idle worker: the crawl loop keeps its workers from round to
   * round (starting one costs more than a small round's parse) and calls this after a round's parse,
   * so what a worker holds through updatedb, invertlinks and index is its live set, not the garbage
   * of the pages it parsed. Busy workers are skipped; resolves with how many workers collected.
   */
  async collectGarbage(): Promise<number> {
    const idle = this.slots.filter((s) => s.state === 'live' && s.jobs.length === 0);
    let collected = 0;
    await Promise.all(idle.map((slot) => new Promise<void>((resolve) => {
      const { worker } = slot;
      const onMessage = (m: FromWorker) => {
        if (m.type !== 'garbage-collected') return;
        if (m.collected) collected++;
        done();
      };
      const done = () => {
        worker.off('message', onMessage);
        worker.off('exit', done);
        if (slot.jobs.length === 0) worker.unref();
        resolve();
      };
      worker.ref();
      worker.on('message', onMessage);
      worker.once('exit', done);
      worker.postMessage({ type: 'collect-garbage' } satisfies ToWorker);
    })));
    this.stats.collections += collected;
    return collected;
  }

  /** Asks each worker to stop its plugins (stop() runs there), then terminates it. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // a worker still starting never says ready once stopped: whoever awaits ready() learns it closed
    for (const s of this.slots) if (s.state === 'starting') s.failReady(new NutchError('NUTCH_CLOSED', 'The parse pool was closed while its workers were starting.'));
    for (const job of this.queue.splice(0)) job.reject(new NutchError('NUTCH_CLOSED', `The parse pool is closed; ${job.content.url} was not parsed.`, { url: job.content.url }));
    await Promise.all(this.slots.map((s) => this.stopSlot(s)));
    this.slots.length = 0;
  }

  private ensureOpen(): void {
    if (this.closed) throw new NutchError('NUTCH_CLOSED', 'The parse pool is closed.');
  }

  private pump(): void {
    // A big document is parsed only by an idle worker and only while no other is being parsed:
    // its bytes, the copy its library reads and what that library decodes are the peak of a
    // worker's memory, and two of them at once would double it. Smaller pages go around it.
    let bigInFlight = this.slots.some((s) => s.state === 'live' && s.jobs.some(isBig));
    for (let i = 0; i < this.queue.length;) {
      const job = this.queue[i]!;
      const big = isBig(job);
      if (big && bigInFlight) {
        i++;
        continue;
      }
      // The least loaded live worker: idle ones first, then a second job for a busy one.
      let slot: Slot | undefined;
      for (const s of this.slots) if (s.state === 'live' && s.jobs.length < (big ? 1 : PIPELINE_DEPTH) && (!slot || s.jobs.length < slot.jobs.length)) slot = s;
      if (!slot) {
        if (big) {
          i++;
          continue;
        }
        break;
      }
      this.queue.splice(i, 1);
      if (big) bigInFlight = true;
      this.dispatch(slot, job);
    }
    if (!this.queue.length) return;
    const live = this.slots.filter((s) => s.state !== 'dead').length;
    const starting = this.slots.filter((s) => s.state === 'starting').length;
    if (live < this.size && starting < this.queue.length) this.spawn();
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.jobs.push(job);
    if (slot.jobs.length === 1) {
      slot.worker.ref();
      this.startTimer(slot);
    }
    // Lent bytes move only to an idle worker: a page waiting in a worker's inbox goes back to the
    // queue when that worker is lost or retires, and must still have its bytes then.
    const own = job.content.content;
    const lent = !!job.lendBytes && slot.jobs.length === 1 && ownsWholeBuffer(own);
    const bytes = lent ? own : new Uint8Array(own); // else a copy: the caller keeps its bytes
    const message: ToWorker = { type: 'parse', id: job.id, content: { ...job.content, content: bytes }, forceAs: job.forceAs, lent };
    slot.worker.postMessage(message, [bytes.buffer as ArrayBuffer]);
    if (lent) job.content.content = new Uint8Array(0);
  }

  /** Times the slot's first job, the one the worker is parsing now. */
  private startTimer(slot: Slot): void {
    clearTimeout(slot.timer);
    const job = slot.jobs[0];
    if (job && this.timeoutMs >= 0) slot.timer = setTimeout(() => this.onTimeout(slot, job), this.timeoutMs);
  }

  /** Puts the jobs queued behind a lost worker's current one back at the front of the queue. */
  private requeueWaiting(slot: Slot): void {
    const waiting = slot.jobs.slice(1);
    slot.jobs = [];
    this.queue.unshift(...waiting);
  }

  private spawn(): Slot {
    const worker = createWorker(this.init);
    this.stats.workersStarted++;
    let markReady!: () => void;
    let markFailed!: (e: Error) => void;
    const ready = new Promise<void>((res, rej) => {
      markReady = res;
      markFailed = rej;
    });
    ready.catch(() => {});
    const slot: Slot = { worker, state: 'starting', jobs: [], ready, failReady: (e) => markFailed(e) };
    this.slots.push(slot);
    worker.on('message', (m: FromWorker) => {
      switch (m.type) {
        case 'ready':
          if (slot.state !== 'starting') return;
          slot.state = 'live';
          worker.unref();
          markReady();
          this.pump();
          return;
        case 'init-error': {
          const err = workerStartError(m.error);
          markFailed(err);
          this.failPool(err);
          void worker.terminate();
          return;
        }
        case 'result':
        case 'error': {
          const job = slot.jobs[0];
          if (!job || job.id !== m.id) return;
          if (m.lentBytes) job.content.content = m.lentBytes;
          // retire first: the pages queued behind this one go back to the queue, not to a worker that drops them
          if (m.retireBufferBytes !== undefined) this.retire(slot, m.retireBufferBytes);
          this.finishJob(slot, m.id, m.type === 'result'
            ? { result: m.result, signature: m.signature, parser: m.parser }
            : failedOutcome(job.content, `Parse failed: ${m.error.message}`, ParseStatusMinor.FAILED_EXCEPTION));
          return;
        }
        case 'log':
          this.log[m.level](m.msg, m.fields);
          return;
        default:
          return;
      }
    });
    worker.on('error', (err) => this.onCrash(slot, err, markFailed));
    worker.on('exit', (code) => this.onCrash(slot, new Error(`parse worker exited with code ${code}`), markFailed));
    return slot;
  }

  private finishJob(slot: Slot, id: number, outcome: ParseOutcome): void {
    const job = slot.jobs[0];
    if (!job || job.id !== id) return;
    slot.jobs.shift();
    this.startTimer(slot);
    if (slot.jobs.length === 0) slot.worker.unref();
    this.stats.parsed++;
    job.resolve(outcome);
    this.pump();
  }

  /**
   * Replaces a worker that holds too much memory after the page it has just answered (parse-worker.ts):
   * that page stays listed for finishJob; every job behind it was only waiting in the worker's inbox.
   */
  private retire(slot: Slot, bufferBytes: number): void {
    if (slot.state === 'dead') return;
    this.stats.retired++;
    slot.state = 'dead';
    clearTimeout(slot.timer);
    this.queue.unshift(...slot.jobs.splice(1));
    this.remove(slot);
    void slot.worker.terminate();
    this.log.debug(`Parse worker retired holding ${(bufferBytes / 1048576).toFixed(0)} MB of buffers after a page; replaced`);
    this.pump();
  }

  private onTimeout(slot: Slot, job: Job): void {
    if (slot.jobs[0] !== job) return;
    this.stats.timeouts++;
    slot.state = 'dead';
    this.requeueWaiting(slot);
    this.remove(slot);
    void slot.worker.terminate();
    const seconds = this.timeoutMs / 1000;
    this.log.warn(`Parse of ${job.content.url.slice(0, 300)} timed out after ${seconds}s (parser.timeout); abandoned, worker replaced`, { url: job.content.url.slice(0, 300), property: 'parser.timeout' });
    job.resolve(failedOutcome(job.content, `Parse of ${job.content.url.slice(0, 300)} timed out after ${seconds}s (parser.timeout)`, ParseStatusMinor.FAILED_EXCEPTION));
    this.pump();
  }

  private onCrash(slot: Slot, err: Error, markFailed: (e: Error) => void): void {
    if (slot.state === 'dead') return;
    const wasStarting = slot.state === 'starting';
    slot.state = 'dead';
    clearTimeout(slot.timer);
    this.remove(slot);
    const job = slot.jobs[0];
    this.requeueWaiting(slot);
    if (this.closed) return;
    if (wasStarting) {
      const e = workerStartError({ message: errorMessage(err) });
      markFailed(e);
      this.failPool(e);
      return;
    }
    this.stats.crashes++;
    if (job) {
      this.log.warn(`Parse worker crashed on ${job.content.url.slice(0, 300)}: ${errorMessage(err)}; worker replaced`, { url: job.content.url.slice(0, 300) });
      job.resolve(failedOutcome(job.content, `Parse worker crashed: ${errorMessage(err)}`, ParseStatusMinor.FAILED_EXCEPTION));
    }
    this.pump();
  }

  private failPool(err: Error): void {
    if (this.initError) return;
    this.initError = err;
    for (const job of this.queue.splice(0)) job.reject(err);
  }

  private remove(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
  }

  private async stopSlot(slot: Slot): Promise<void> {
    const { worker } = slot;
    slot.state = 'dead';
    clearTimeout(slot.timer);
    for (const job of slot.jobs.splice(0)) job.reject(new NutchError('NUTCH_CLOSED', `The parse pool closed while ${job.content.url} was being parsed.`));
    worker.ref();
    const closed = new Promise<void>((resolve) => {
      worker.on('message', (m: FromWorker) => m.type === 'closed' && resolve());
      worker.once('exit', () => resolve());
    });
    worker.postMessage({ type: 'close' } satisfies ToWorker);
    const timer = setTimeout(() => void worker.terminate(), 2000);
    await closed;
    clearTimeout(timer);
    await worker.terminate();
  }
}

/** Bytes that can be moved to a worker: a plain ArrayBuffer they span exactly (not a slice of a pool or a record). */
function ownsWholeBuffer(bytes: Uint8Array): boolean {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.byteLength > 0 && bytes.buffer instanceof ArrayBuffer;
}

function failedOutcome(content: Content, message: string, minor: number): ParseOutcome {
  const parse = failedParse(message, minor);
  parse.data.contentMeta = { ...content.metadata };
  return { result: singleParseResult(content.url, parse), signature: null };
}
