/**
 * A URL-keyed database directory laid out as Nutch's: `<db>/current/part-00000` (one SQLite file)
 * and `<db>/.locked` while a writer works. Shared by the CrawlDb and the LinkDb.
 *
 * Atomicity: an update session is ONE SQLite write transaction on its own connection (BEGIN
 * IMMEDIATE … COMMIT). Readers use another connection and, thanks to WAL, keep seeing the last
 * committed state until COMMIT; a kill -9 at any moment leaves the uncommitted frames in the WAL,
 * which SQLite ignores on the next open. The session is chunked (see KeyedTable), so the
 * transaction spans many event-loop turns without blocking any of them for long.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Keyed, ScanOptions } from '../interfaces.js';
import { NutchError } from '../../errors.js';
import { guard, openDatabase, type SqliteDatabase } from './open-database.js';
import { KeyedTable, type RowCodec } from './keyed-table.js';
import { checkpointInWorker } from './checkpoint-worker.js';
import { acquireLock, type LockWarn, type WriterLock } from './writer-lock.js';

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

  exists(): boolean {
    return fs.existsSync(this.file);
  }

  /** The reader table, or null while the database does not exist yet. */
  readTable(): KeyedTable<V> | null {
    if (this.closed) throw new NutchError('NUTCH_CLOSED', `${this.path} was used after close().`, { file: this.file });
    if (this.reader) return this.reader.table;
    if (!fs.existsSync(this.file)) return null;
    const db = openDatabase(this.file, { manualCheckpoint: true });
    const hasTable = guard(this.file, () => db.prepare('SELECT 1 FROM sqlite_master WHERE type = ? AND name = ?').get('table', this.codec.table));
    if (!hasTable) {
      db.close();
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
    let db: SqliteDatabase | undefined;
    try {
      // 4 MB of cache: COMMIT (and each spill) writes at most that much in one synchronous step
      db = openDatabase(this.file, { create: true, schema: this.schema, manualCheckpoint: true, cacheKiB: 4000 });
      db.exec('BEGIN IMMEDIATE');
    } catch (err) {
      db?.close();
      lock.release();
      throw err;
    }
    const session = new KeyedSession<V>(db, this.file, lock, new KeyedTable(db, this.file, this.codec, this.opts.batchSize), () => this.sessions.delete(session));
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
    private readonly db: SqliteDatabase,
    private readonly file: string,
    private readonly lock: WriterLock,
    readonly table: KeyedTable<V>,
    private readonly onEnd: () => void,
  ) {}

  check(): KeyedTable<V> {
    if (this.done) throw new NutchError('NUTCH_CLOSED', 'The update session was already committed or aborted.', { file: this.lock.file });
    return this.table;
  }

  async commit(): Promise<void> {
    this.check();
    this.done = true;
    try {
      this.db.exec('COMMIT');
      // Copy the committed WAL into the database file off the main thread; the connection stays
      // open meanwhile so that closing it does not checkpoint synchronously.
      await checkpointInWorker(this.file);
    } finally {
      this.end();
    }
  }

  async abort(): Promise<void> {
    if (this.done) return;
    this.done = true;
    try {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
    } finally {
      this.end();
    }
  }

  private end(): void {
    try { this.db.close(); } finally {
      this.lock.release();
      this.onEnd();
    }
  }
}

function joinPart(dir: string): string {
  return path.join(dir, CURRENT_DIR, PART_FILE);
}
