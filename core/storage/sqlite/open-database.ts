/**
 * Opens one SQLite store file with the pragmas every nutch-ts store uses, and turns driver errors
 * about a damaged or foreign file into NUTCH_STORAGE_CORRUPT naming the file (nothing is overwritten).
 */
import fs from 'node:fs';
import { lazyModule } from '../../lazy-module.js';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { NutchError } from '../../errors.js';
import { makeDirectory } from './make-directory.js';
import { diskError, isDiskError } from './disk-error.js';

export type SqliteDatabase = Database.Database;

// The driver (a native addon) is loaded by the first open, not at start-up: commands that never open
// a store (showproperties, plugin, the checkers) do not pay for it.
const driver = lazyModule<typeof Database>('better-sqlite3');
export function sqliteDriver(): typeof Database {
  return driver();
}

export interface OpenOptions {
  /** Create the file (and its directory) when missing. */
  create?: boolean;
  readonly?: boolean;
  /** Schema statements run after opening (CREATE TABLE IF NOT EXISTS …). */
  schema?: string;
  /** No auto-checkpoint on this connection (CrawlDb, LinkDb: the writer thread checkpoints after COMMIT). */
  manualCheckpoint?: boolean;
  /** Page cache in KiB (default 8000). A writer's whole dirty cache is written at COMMIT (and when it
   * spills), in one synchronous step: keep it small for long write sessions. */
  cacheKiB?: number;
  /** A write-once file (a segment part): rollback journal and no fsync instead of WAL. Every committed
   * transaction survives a process crash (kill -9) — the bytes are in the OS's page cache — and each
   * row is written once instead of twice (WAL, then checkpoint). Only a power loss can damage the part
   * being written; the CrawlDb, untouched until updatedb, then makes the next round refetch it. */
  writeOnce?: boolean;
}

const CORRUPT = new Set(['SQLITE_NOTADB', 'SQLITE_CORRUPT', 'SQLITE_CORRUPT_VTAB', 'SQLITE_CANTOPEN']);

export function isCorruptionError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && CORRUPT.has(code);
}

export function corruptError(file: string, err: unknown): NutchError {
  return new NutchError(
    'NUTCH_STORAGE_CORRUPT',
    `${file} is not a readable nutch-ts store (${(err as Error).message}). It was left untouched; restore it from a copy or remove it.`,
    { file },
    { cause: err },
  );
}

export function openDatabase(file: string, opts: OpenOptions = {}): SqliteDatabase {
  if (!opts.create && !fs.existsSync(file)) {
    throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `${file} does not exist.`, { file });
  }
  if (opts.create) makeDirectory(path.dirname(file));
  let db: SqliteDatabase | undefined;
  try {
    db = new (sqliteDriver())(file, { readonly: opts.readonly ?? false, fileMustExist: !opts.create });
    // Reading the schema forces SQLite to look at the header: a foreign file fails here, not later.
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    if (!opts.readonly) {
      if (opts.writeOnce) {
        // 16 KB pages (a new file only): a 30 KB page body spans 2 overflow pages instead of 8, which
        // makes appending content and parse text about 40% cheaper.
        db.pragma('page_size = 16384');
        db.pragma('journal_mode = DELETE');
        db.pragma('synchronous = OFF');
      } else {
        db.pragma('journal_mode = WAL');
        // WAL + NORMAL: a process crash (kill -9) never loses a committed transaction nor exposes an
        // uncommitted one; only a power loss may roll back the last commit.
        db.pragma('synchronous = NORMAL');
      }
      db.pragma(`cache_size = -${Math.max(500, Math.trunc(opts.cacheKiB ?? 8000))}`);
      if (opts.manualCheckpoint) db.pragma('wal_autocheckpoint = 0');
      db.pragma('temp_store = MEMORY');
      if (opts.schema) db.exec(opts.schema);
    }
    db.pragma('busy_timeout = 5000');
    return db;
  } catch (err) {
    try { db?.close(); } catch { /* already failing */ }
    if (isCorruptionError(err)) throw corruptError(file, err);
    if (isDiskError(err)) throw diskError(file, err);
    throw err;
  }
}

/** Wraps a driver call so corruption or a full disk found mid-stage also names the file. */
export function guard<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (isCorruptionError(err)) throw corruptError(file, err);
    if (isDiskError(err)) throw diskError(file, err);
    throw err;
  }
}
