/**
 * The database a `storage.url` names, and the connection pool to it. `?schema=name` keeps the
 * nutch-ts tables in a PostgreSQL schema of their own (several crawls in one database); it is read
 * here and never sent to the server as a connection parameter.
 */
import { lazyModule } from '../../lazy-module.js';
import os from 'node:os';
import type pg from 'pg';
import { NutchError } from '../../errors.js';
import { redactStorageUrl } from '../storage-url.js';

export interface PgTarget {
  /** The URL given to the driver (without `schema`). */
  connectionString: string;
  /** The URL for messages: password replaced. */
  redacted: string;
  /** The PostgreSQL schema holding the tables, or null for the connection's default (public). */
  schema: string | null;
}

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export function parseStorageUrl(url: string): PgTarget {
  const redacted = redactStorageUrl(url);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new NutchError('NUTCH_CONFIG_INVALID_VALUE', `storage.url "${redacted}" is not a URL (postgresql://user@host:port/db).`, { property: 'storage.url', value: redacted });
  }
  const schema = parsed.searchParams.get('schema');
  if (schema !== null && !SCHEMA_NAME.test(schema)) {
    throw new NutchError('NUTCH_CONFIG_INVALID_VALUE', `storage.url "${redacted}": schema "${schema}" is not a plain SQL identifier (letters, digits, _).`, { property: 'storage.url', value: redacted });
  }
  parsed.searchParams.delete('schema');
  return { connectionString: parsed.toString(), redacted, schema };
}

/** Shown as the holder of a writer lock: pg_stat_activity.application_name. */
export function applicationName(): string {
  return `nutch-ts ${os.hostname()}:${process.pid}`.slice(0, 63);
}

// The driver is loaded when the first pool is made, not when the engine module is: every command
// imports the engine chooser, and loading pg cost a SQLite-only start-up ~0.1 CPU-s.
const pgModule = lazyModule<typeof pg>('pg');

export function createPool(target: PgTarget, max: number, onIdleError: (err: Error) => void): pg.Pool {
  const { Pool } = pgModule();
  const pool = new Pool({
    connectionString: target.connectionString,
    max,
    application_name: applicationName(),
    // a machine that vanishes (no FIN) is noticed by keepalives, so its session and lock end
    keepAlive: true,
    connectionTimeoutMillis: 15_000,
    idleTimeoutMillis: 10_000,
    ...(target.schema ? { options: `-c search_path=${target.schema}` } : {}),
  });
  // An idle pooled connection that breaks (server restart) must not crash the process; the next
  // query opens a new one or reports the failure to its caller.
  pool.on('error', onIdleError);
  return pool;
}
