/**
 * Chooses the storage engine from `storage.url`, as the CLI and createNutch() both do: empty means
 * the embedded SQLite engine under the paths commands are given; `postgresql://…` (or `postgres://…`)
 * the PostgreSQL engine, whose stores are named by those same paths inside the database. The engine
 * is created here and owned (closed) by whoever called this.
 */
import type { Configuration } from '../config/configuration.js';
import { NutchError } from '../errors.js';
import type { Logger } from '../log.js';
import type { StorageEngine } from './interfaces.js';
import { PostgresStorageEngine } from './postgres/postgres-engine.js';
import { SqliteStorageEngine } from './sqlite/sqlite-engine.js';
import { redactStorageUrl } from './storage-url.js';

export { redactStorageUrl } from './storage-url.js';

export interface OpenStorageOptions {
  /** Relative store paths are taken from here (default the process's working directory). */
  cwd?: string;
}

export function openStorageEngine(conf: Configuration, log: Logger, opts: OpenStorageOptions = {}): StorageEngine {
  const url = conf.getString('storage.url', '').trim();
  const batchSize = conf.getInt('storage.batch.size');
  const warn = (msg: string, fields?: Record<string, unknown>) => log.warn(msg, fields);
  if (!url) return new SqliteStorageEngine({ batchSize, warn });
  if (/^postgres(ql)?:\/\//i.test(url)) return new PostgresStorageEngine({ url, cwd: opts.cwd, batchSize, warn });
  throw new NutchError(
    'NUTCH_CONFIG_INVALID_VALUE',
    `storage.url "${redactStorageUrl(url)}" names no storage engine nutch-ts has: use postgresql://user@host:port/db, or leave it empty for the embedded SQLite engine.`,
    { property: 'storage.url', value: redactStorageUrl(url), cwd: opts.cwd },
  );
}
