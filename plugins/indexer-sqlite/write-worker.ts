/**
 * The index writes of indexer-sqlite run in a worker thread, so FTS5 tokenising and posting-list
 * updates (most of the index stage's time) overlap with the main thread reading segments and running
 * the IndexingFilters. The worker owns the only write connection; it receives an open request, then
 * batches of upserts and deletes and commit/rollback/close requests, and answers each with ok or the
 * error message. Its source is an eval'd CommonJS string (so it runs the same from source and from
 * dist) that loads better-sqlite3 from the path the main thread resolved.
 *
 * A thread keeps nothing of a writer once the writer closed (its connection is checkpointed and
 * closed), so it waits, unreferenced, for the next writer of the process instead of ending: starting
 * a thread and loading the driver cost ~0.1 CPU-s, and a crawl round opens two writers (index, clean).
 * Idle threads end after IDLE_MS and never keep the process alive.
 */
import { Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { IdleThreads } from '../../sdk/plugin.js';

export interface UpsertRow {
  id: string;
  boost: number;
  fields: string;
  /** url, title, content, anchor, headings. */
  cols: [string, string, string, string, string];
}

export type Action = { op: 'upsert'; row: UpsertRow } | { op: 'delete'; id: string };

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlitePath);
let db = null;
let s = null;
let inTransaction = false;
function open(file, schema) {
  db = new Database(file);
  // 16 KB pages for a new index: FTS5's posting lists span fewer pages, about 20% less CPU per document
  // than SQLite's default 4 KB (an existing index keeps its page size).
  db.pragma('page_size = 16384');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // No checkpoint inside COMMIT: a run's transaction fills the WAL with the whole batch of new postings,
  // and copying them into the database file takes about a quarter of the stage. The worker does it after
  // it has answered 'close' (see below), while the crawl goes on.
  db.pragma('wal_autocheckpoint = 0');
  db.pragma('cache_size = -16384');
  // An index written before the headings column: move its rows into the new table once (FTS5 keeps
  // the text, so nothing is lost; the documents get their headings when they are next indexed).
  const ftsColumns = db.prepare("SELECT name FROM pragma_table_info('documents_fts')").all().map((r) => r.name);
  if (ftsColumns.length && !ftsColumns.includes('headings')) {
    db.exec('BEGIN IMMEDIATE; ALTER TABLE documents_fts RENAME TO documents_fts_v1;' + schema +
      "INSERT INTO documents_fts (rowid, url, title, content, anchor, headings) SELECT rowid, url, title, content, anchor, '' FROM documents_fts_v1; DROP TABLE documents_fts_v1; COMMIT;");
  }
  db.exec(schema);
  s = {
    rowid: db.prepare('SELECT rowid FROM documents WHERE id = ?'),
    insertDoc: db.prepare('INSERT INTO documents (id, boost, fields) VALUES (?, ?, ?)'),
    updateDoc: db.prepare('UPDATE documents SET boost = ?, fields = ? WHERE rowid = ?'),
    deleteDoc: db.prepare('DELETE FROM documents WHERE rowid = ?'),
    insertFts: db.prepare('INSERT INTO documents_fts (rowid, url, title, content, anchor, headings) VALUES (?, ?, ?, ?, ?, ?)'),
    deleteFts: db.prepare('DELETE FROM documents_fts WHERE rowid = ?'),
  };
  inTransaction = false;
}
function apply(a) {
  if (!inTransaction) { db.exec('BEGIN IMMEDIATE'); inTransaction = true; }
  if (a.op === 'delete') {
    const e = s.rowid.get(a.id);
    if (e) { s.deleteFts.run(e.rowid); s.deleteDoc.run(e.rowid); }
    return;
  }
  const r = a.row;
  const e = s.rowid.get(r.id);
  if (e) {
    s.deleteFts.run(e.rowid);
    s.updateDoc.run(r.boost, r.fields, e.rowid);
    s.insertFts.run(e.rowid, ...r.cols);
  } else {
    const info = s.insertDoc.run(r.id, r.boost, r.fields);
    s.insertFts.run(info.lastInsertRowid, ...r.cols);
  }
}
// After 'close' is answered: copy the WAL into the database file (PASSIVE: never waits for a reader)
// and close the connection; the thread then waits for the next writer's 'open'. Cut short at process
// exit, the WAL stays and the next connection carries on from it: committed documents are never lost.
function checkpointAndClose() {
  const closing = db;
  db = null;
  s = null;
  try { closing.pragma('wal_checkpoint(PASSIVE)'); } catch {}
  try { closing.close(); } catch {}
}
parentPort.on('message', (m) => {
  try {
    if (m.kind === 'open') open(m.file, m.schema);
    else if (m.kind === 'batch') for (const a of m.actions) apply(a);
    else if (m.kind === 'commit') { if (inTransaction) { db.exec('COMMIT'); inTransaction = false; } }
    else if (m.kind === 'rollback') { if (inTransaction) { db.exec('ROLLBACK'); inTransaction = false; } }
    else if (m.kind === 'close') { if (inTransaction) { db.exec('ROLLBACK'); inTransaction = false; } }
    parentPort.postMessage({ seq: m.seq, ok: true });
    if (m.kind === 'close' && db) checkpointAndClose();
  } catch (err) {
    parentPort.postMessage({ seq: m.seq, ok: false, message: String(err && err.message || err), code: err && err.code });
  }
});
`;

const sqlitePath = createRequire(import.meta.url).resolve('better-sqlite3');

/** Threads kept for the next writer: a crawl's index and clean stages open one writer at a time. */
// A young generation of 24 MB instead of V8's 48: a batch's documents die once SQLite has copied them,
// and a parked thread keeps its young generation committed (as the CrawlDb writer threads do).
const threads = new IdleThreads(() => new Worker(WORKER_SOURCE, { eval: true, workerData: { sqlitePath }, resourceLimits: { maxYoungGenerationSizeMb: 24 } }), { idleMs: 30_000, maxIdle: 2 });

/** Threads waiting for an index writer (tests). */
export function idleIndexWriteThreads(): number {
  return threads.size;
}

const MAX_IN_FLIGHT = 2;

type Reply = { seq: number; ok: boolean; message?: string; code?: string };

export class WriteWorker {
  private readonly worker: Worker;
  private seq = 0;
  private readonly waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>();
  private readonly inFlight: Promise<void>[] = [];
  private failure: Error | null = null;
  private exited = false;
  private readonly listeners: { message: (m: Reply) => void; error: (err: Error) => void; exit: (code: number) => void };

  constructor(file: string, schema: string) {
    this.worker = threads.take();
    const fail = (err: Error) => {
      this.failure ??= err;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    this.listeners = {
      message: (m) => {
        const w = this.waiting.get(m.seq);
        this.waiting.delete(m.seq);
        if (!w) return;
        if (m.ok) w.resolve();
        else w.reject(Object.assign(new Error(m.message), { code: m.code }));
      },
      error: fail,
      exit: (code) => {
        this.exited = true;
        fail(new Error(`index write worker exited (code ${code})`));
      },
    };
    this.worker.on('message', this.listeners.message);
    this.worker.on('error', this.listeners.error);
    this.worker.on('exit', this.listeners.exit);
    // Queued like a batch: an index that cannot be opened fails the first write, commit or close.
    const opened = this.send('open', undefined, { file, schema });
    // a writer whose index cannot be opened has failed, and its thread (holding nothing) ends
    opened.catch((err: Error) => {
      this.failure ??= err;
      void this.worker.terminate();
    });
    this.inFlight.push(opened);
  }

  private send(kind: string, actions?: Action[], extra?: Record<string, unknown>): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const seq = ++this.seq;
    const p = new Promise<void>((resolve, reject) => this.waiting.set(seq, { resolve, reject }));
    this.worker.postMessage({ seq, kind, actions, ...extra });
    return p;
  }

  /** Queues a batch; waits only when too many batches are in flight (back-pressure). */
  async batch(actions: Action[]): Promise<void> {
    const p = this.send('batch', actions);
    p.catch(() => undefined);
    this.inFlight.push(p);
    if (this.inFlight.length > MAX_IN_FLIGHT) await this.inFlight.shift();
  }

  /** Waits for every queued batch, then commits. */
  async commit(): Promise<void> {
    await this.drain();
    await this.send('commit');
  }

  private async drain(): Promise<void> {
    while (this.inFlight.length) await this.inFlight.shift();
  }

  async rollback(): Promise<void> {
    await Promise.allSettled(this.inFlight.splice(0));
    if (!this.failure) await this.send('rollback').catch(() => undefined);
  }

  /**
   * Resolves once the worker has answered; it checkpoints and closes the connection on its own, and
   * the thread waits for the next writer (a thread that failed or exited ends instead).
   */
  async close(): Promise<void> {
    await Promise.allSettled(this.inFlight.splice(0));
    const closed = this.exited || this.failure ? false : await this.send('close').then(() => true, () => false);
    this.worker.off('message', this.listeners.message);
    this.worker.off('error', this.listeners.error);
    this.worker.off('exit', this.listeners.exit);
    if (closed && !this.failure) threads.park(this.worker);
    else await this.worker.terminate();
  }
}
