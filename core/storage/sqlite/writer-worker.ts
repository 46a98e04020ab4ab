/**
 * The writer connection of an update session, in a worker thread. All SQLite work of a session —
 * the inserts, the session's own reads, COMMIT (whose cost grows with the transaction: ~60 ms for a
 * million new rows) and the WAL checkpoint after it — runs there, so the main thread only encodes,
 * posts and decodes, and the event loop stays free however large the session. Requests are served
 * in order, one at a time. Values cross as column arrays (the codec stays on the main thread), so
 * the worker is plain JavaScript and needs nothing but the driver.
 *
 * A thread serves one session at a time and keeps nothing from it once the session committed or
 * aborted (its connection is closed), so a thread whose session ended cleanly waits, unreferenced,
 * for the next session of the process instead of ending: starting a thread and loading the driver
 * cost more than a small session (a crawl round opens five of them). Idle threads end after
 * IDLE_MS, and never keep the process alive.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { IdleThreads } from '../../idle-threads.js';
import { NutchError } from '../../errors.js';
import { corruptError } from './open-database.js';
import { diskError, isDiskError } from './disk-error.js';

const require = createRequire(import.meta.url);
const driverPath = require.resolve('better-sqlite3');

const WORKER_SOURCE = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.driverPath);
let db;
let st = {};
const toBuffer = (v) => (v instanceof Uint8Array && !Buffer.isBuffer(v) ? Buffer.from(v.buffer, v.byteOffset, v.byteLength) : v);
const ops = {
  open({ file, table, columns, schema, cacheKiB }) {
    st = {};
    db = new Database(file);
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('cache_size = -' + cacheKiB);
    db.pragma('temp_store = MEMORY');
    db.pragma('wal_autocheckpoint = 0');
    db.pragma('busy_timeout = 5000');
    // the table is created inside the session's transaction: until the first commit the store does not exist
    db.exec('BEGIN IMMEDIATE');
    db.exec(schema);
    const marks = columns.split(',').map(() => '?').join(', ');
    st.get = db.prepare('SELECT ' + columns + ' FROM ' + table + ' WHERE url = ?').raw(true);
    st.first = db.prepare('SELECT ' + columns + ' FROM ' + table + ' ORDER BY url LIMIT ?').raw(true);
    st.from = db.prepare('SELECT ' + columns + ' FROM ' + table + ' WHERE url >= ? ORDER BY url LIMIT ?').raw(true);
    st.next = db.prepare('SELECT ' + columns + ' FROM ' + table + ' WHERE url > ? ORDER BY url LIMIT ?').raw(true);
    st.put = db.prepare('INSERT OR REPLACE INTO ' + table + ' (' + columns + ') VALUES (' + marks + ')');
    st.del = db.prepare('DELETE FROM ' + table + ' WHERE url = ?');
    st.count = db.prepare('SELECT count(*) AS n FROM ' + table);
  },
  put({ rows }) { for (const r of rows) st.put.run(...r.map(toBuffer)); },
  delete({ urls }) { for (const u of urls) st.del.run(u); },
  count() { return st.count.get().n; },
  getMany({ urls }) { const out = []; for (const u of urls) { const r = st.get.get(u); if (r) out.push(r); } return out; },
  page({ after, from, size }) {
    return after !== undefined ? st.next.all(after, size) : from !== undefined ? st.from.all(from, size) : st.first.all(size);
  },
  commit() {
    db.exec('COMMIT');
    try { db.pragma('wal_checkpoint(TRUNCATE)'); } catch { /* the WAL stays until the next checkpoint */ }
    db.close();
  },
  abort() { if (db && db.open) { if (db.inTransaction) db.exec('ROLLBACK'); db.close(); } },
};
parentPort.on('message', ({ id, op, args }) => {
  try {
    parentPort.postMessage({ id, result: ops[op](args || {}) });
  } catch (err) {
    parentPort.postMessage({ id, error: { message: String(err && err.message || err), code: err && err.code } });
  }
});
`;

const CORRUPT = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_CORRUPT_VTAB', 'SQLITE_CANTOPEN']);

export interface WriterWorkerOptions {
  file: string;
  table: string;
  columns: string;
  schema: string;
  cacheKiB: number;
}

type Reply = { id: number; result?: unknown; error?: { message: string; code?: string } };

/**
 * A young generation of 24 MB instead of V8's 48: what a request carries (rows, URLs) dies as soon as
 * SQLite has copied it, and a parked thread keeps its young generation committed (a full collection
 * does not give it back), so this is ~15 MB less per live thread at the same CPU; 8 MB, as in the parse
 * workers, made batches of large values survive into the old generation and cost many times the CPU.
 */
export const WRITER_THREAD_LIMITS = { maxYoungGenerationSizeMb: 24 };

/** Threads kept for the next session: sessions of one process rarely overlap (a stage opens one or two). */
const threads = new IdleThreads(() => new Worker(WORKER_SOURCE, { eval: true, workerData: { driverPath }, resourceLimits: WRITER_THREAD_LIMITS }), { idleMs: 30_000, maxIdle: 2 });

/** Threads waiting for a session (tests). */
export function idleWriterThreads(): number {
  return threads.size;
}

export class WriterWorker {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
  private failure: Error | null = null;
  /** The session's connection was closed by a commit or abort that succeeded: the thread is reusable. */
  private ended = false;

  private readonly listeners: { message: (m: Reply) => void; error: (err: Error) => void; exit: () => void };

  private constructor(private readonly opts: WriterWorkerOptions) {
    this.worker = threads.take();
    const fail = (err: Error) => {
      this.failure = err;
      for (const p of this.pending.values()) p.reject(err);
      this.pending.clear();
    };
    this.listeners = {
      message: ({ id, result, error }) => {
        const p = this.pending.get(id);
        if (!p) return;
        this.pending.delete(id);
        if (!error) return p.resolve(result);
        const err = Object.assign(new Error(error.message), { code: error.code });
        p.reject(error.code && CORRUPT.has(error.code) ? corruptError(opts.file, err) : isDiskError(err) ? diskError(opts.file, err) : err);
      },
      error: fail,
      exit: () => fail(new NutchError('NUTCH_CLOSED', `The writer thread of ${opts.file} has stopped.`, { file: opts.file })),
    };
    this.worker.on('message', this.listeners.message);
    this.worker.on('error', this.listeners.error);
    this.worker.on('exit', this.listeners.exit);
  }

  private detach(): void {
    this.worker.off('message', this.listeners.message);
    this.worker.off('error', this.listeners.error);
    this.worker.off('exit', this.listeners.exit);
  }

  /** Takes a thread (a waiting one, else a new one), opens the file (creating it and its schema) and begins the transaction. */
  static async start(opts: WriterWorkerOptions): Promise<WriterWorker> {
    const w = new WriterWorker(opts);
    try {
      await w.call('open', { ...opts });
    } catch (err) {
      w.detach();
      await w.worker.terminate();
      throw err;
    }
    return w;
  }

  async call<T = unknown>(op: string, args?: Record<string, unknown>): Promise<T> {
    if (this.failure) throw this.failure;
    const id = this.nextId++;
    const result = await new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, op, args });
    });
    if (op === 'commit' || op === 'abort') this.ended = true;
    return result;
  }

  /** Ends the session's use of the thread: back to the waiting threads when it ended cleanly, else terminated. */
  async stop(): Promise<void> {
    this.detach();
    if (this.ended && !this.failure && this.pending.size === 0) {
      threads.park(this.worker);
      return;
    }
    await this.worker.terminate();
  }
}
