/**
 * Chooses the storage engine from `storage.url`, as the CLI and createNutch() both do: empty means
 * the embedded SQLite engine under the paths commands are given; any other value names a server
 * engine. The engine is created here and owned (closed) by whoever called this.
 */
import type { Configuration } from '../config/configuration.js';
import { NutchError } from '../errors.js';
import type { Logger } from '../log.js';
import type { StorageEngine } from './interfaces.js';
import { SqliteStorageEngine } from './sqlite/sqlite-engine.js';

export interface OpenStorageOptions {
  /** Relative store paths are taken from here (default the process's working directory). */
  cwd?: string;
}

/** `storage.url` with any password replaced, for messages and logs. */
export function redactStorageUrl(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}

export function openStorageEngine(conf: Configuration, log: Logger, opts: OpenStorageOptions = {}): StorageEngine {
  const url = conf.getString('storage.url', '').trim();
  const batchSize = conf.getInt('storage.batch.size');
  if (!url) return new SqliteStorageEngine({ batchSize, warn: (msg, fields) => log.warn(msg, fields) });
  throw new NutchError(
    'NUTCH_CONFIG_INVALID_VALUE',
    `storage.url "${redactStorageUrl(url)}" names no storage engine nutch-ts has. Leave it empty for the embedded SQLite engine.`,
    { property: 'storage.url', value: redactStorageUrl(url), cwd: opts.cwd },
  );
}
