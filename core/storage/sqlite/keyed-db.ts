/**
 * A URL-keyed database directory laid out as Nutch's: `<db>/current/part-00000` (one SQLite file)
 * and `<db>/.locked` while a writer works. Shared by the CrawlDb and the LinkDb.
 *
 * Atomicity: an update session is ONE SQLite write transaction (BEGIN IMMEDIATE … COMMIT) on a
 * connection of its own, held by a writer thread (WriterWorker) so that no SQLite write — COMMIT
 * and the WAL checkpoint included — runs on the main thread. Readers use another connection and,
 * thanks to WAL, keep seeing the last committed state until COMMIT; a kill -9 at any moment leaves
 * the uncommitted frames in the WAL, which SQLite ignores on the next open.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Keyed, ScanOptions } from '../interfaces.js';
import { NutchError } from '../../errors.js';
import { guard, openDatabase, type SqliteDatabase } from './open-database.js';
import { KeyedTable, type RowCodec } from './keyed-table.js';
import { RemoteTable } from './remote-table.js';
import { WriterWorker } from './writer-worker.js';
import { acquireLock, type LockWarn, type WriterLock } from './writer-lock.js';
import { makeDirectory } from './make-directory.js';

export const CURRENT_DIR = 'current';
export const PART_FILE = 'part-00000';

export interface KeyedDbOptions {
  batchSize: number;
  warn?: LockWarn;
}

export class KeyedDb<V> {
  readonly file: string;
  private reader: { db: SqliteDatabase; table: KeyedTable<V> } | null = null;
  private readonly sessions = new Set<KeyedSession<V>>();
  private closed = false;

  constructor(
    readonly path: string,
    private readonly codec: RowCodec<V>,
    private readonly schema: string,
    private readonly opts: KeyedDbOptions,
  ) {
    this.file = path.endsWith('part-00000') ? path : joinPart(path);
    // A damaged file is reported when the database is opened, before any stage work.
    if (fs.existsSync(this.file)) this.readTable();
  }

  /** A file whose first session never committed holds no table yet: not a store. */
  exists(): boolean {
    return this.readTable() !== null;
  }

  /** The reader table, or null while the database does not exist yet. */
  readTable(): KeyedTable<V> | null {
    if (this.closed) throw new NutchError('NUTCH_CLOSED', `${this.path} was used after close().`, { file: this.file });
    if (this.reader) return this.reader.table;
    if (!fs.existsSync(this.file)) return null;
    const db = openDatabase(this.file, { manualCheckpoint: true });
    const hasTable = guard(this.file, () => db.prepare('SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?').get('table', this.codec.table));
    if (!hasTable) {
      const empty = guard(this.file, () => db.prepare('SELECT count(*) AS n FROM sqlite_master').get() as { n: number }).n === 0;
      db.close();
      if (empty) return null; // created by a first session that has not committed (or was aborted, or died)
      throw new NutchError('NUTCH_STORAGE_CORRUPT', `${this.file} is an SQLite file without a "${this.codec.table}" table; it is not a nutch-ts store and was left untouched.`, { file: this.file });
    }
    this.reader = { db, table: new KeyedTable(db, this.file, this.codec, this.opts.batchSize) };
    return this.reader.table;
  }

  async get(url: string): Promise<V | null> {
    return this.readTable()?.get(url) ?? null;
  }

  async getMany(urls: readonly string[]): Promise<Map<string, V>> {
    return (await this.readTable()?.getMany(urls)) ?? new Map();
  }

  async *scan(opts?: ScanOptions): AsyncGenerator<Keyed<V>> {
    const table = this.readTable();
    if (table) yield* table.scan(opts);
  }

  async count(): Promise<number> {
    return (await this.readTable()?.count()) ?? 0;
  }

  async beginSession(opts: { force?: boolean } = {}): Promise<KeyedSession<V>> {
    if (this.closed) throw new NutchError('NUTCH_CLOSED', `${this.path} was used after close().`, { file: this.file });
    if (fs.existsSync(this.file)) this.readTable(); // refuse a corrupt file before taking the lock
    const lock = acquireLock(this.path, { force: opts.force, warn: this.opts.warn });
    let worker: WriterWorker;
    try {
      makeDirectory(path.dirname(this.file));
      // 4 MB of cache: each spill during the session stays a short step for the writer thread
      worker = await WriterWorker.start({ file: this.file, table: this.codec.table, columns: this.codec.columns, schema: this.schema, cacheKiB: 4000 });
    } catch (err) {
      lock.release();
      throw err;
    }
    const session = new KeyedSession<V>(worker, lock, new RemoteTable(worker, this.codec, this.opts.batchSize), () => this.sessions.delete(session));
    this.sessions.add(session);
    return session;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    for (const s of [...this.sessions]) await s.abort();
    this.reader?.db.close();
    this.reader = null;
    this.closed = true;
  }
}

export class KeyedSession<V> {
  private done = false;

  constructor(
    private readonly worker: WriterWorker,
    private readonly lock: WriterLock,
    readonly table: RemoteTable<V>,
    private readonly onEnd: () => void,
  ) {}

  check(): RemoteTable<V> {
    if (this.done) throw new NutchError('NUTCH_CLOSED', 'The update session was already committed or aborted.', { file: this.lock.file });
    return this.table;
  }

  /** COMMIT, then the WAL checkpoint, both in the writer thread; the lock goes last. */
  async commit(): Promise<void> {
    this.check();
    this.done = true;
    try {
      await this.table.drain();
      await this.worker.call('commit');
    } catch (err) {
      await this.worker.call('abort').catch(() => {});
      throw err;
    } finally {
      await this.end();
    }
  }

  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    try {
      await this.table.drain().catch(() => {});
      await this.worker.call('abort');
    } finally {
      await this.end();
    }
  }

  private async end(): Promise<void> {
    try {
      await this.worker.stop();
    } finally {
      this.lock.release();
      this.onEnd();
    }
  }
}

function joinPart(dir: string): string {
  return path.join(dir, CURRENT_DIR, PART_FILE);
}
