/**
 * What every store of one PostgreSQL engine shares: the pool, the schema (created or migrated once,
 * before the first query), the advisory-lock class, and error translation naming the database.
 */
import type pg from 'pg';
/** Receives warnings (a lock forced, an idle connection broken). */
export type LockWarn = (msg: string, fields?: Record<string, unknown>) => void;
import { pgGuard, translatePgError } from './pg-errors.js';
import { ensureSchema, lockClass } from './pg-schema.js';
import { createPool, type PgTarget } from './pg-target.js';

const guarded = new WeakSet<pg.PoolClient>();
/**
 * The first error a connection reported while no query ran (the server ended the session): why its next
 * query fails. The first, not the last: the server's reason (idle_in_transaction_session_timeout, 25P03)
 * comes before the socket closes, and the "Connection terminated unexpectedly" that follows must not
 * hide it, or a worker continued after a freeze takes its ended write for a lost database.
 */
const sessionErrors = new WeakMap<pg.PoolClient, Error>();
/** idle_in_transaction_session_timeout ended the session. */
const IDLE_IN_TRANSACTION_TIMEOUT = '25P03';

export interface TransactionOptions {
  /**
   * The transaction may stand idle (between statements) at most this long; past it the server ends
   * the session and rolls back, releasing its locks, and the transaction fails with onIdleTimeout(err).
   */
  idleTimeoutMs?: number;
  onIdleTimeout?: (err: unknown) => unknown;
}

export class PgDatabase {
  readonly pool: pg.Pool;
  readonly lockClass: number;
  private schemaReady: Promise<void> | null = null;

  constructor(readonly target: PgTarget, readonly batchSize: number, readonly warn: LockWarn | undefined, poolSize: number) {
    this.pool = createPool(target, poolSize, (err) => warn?.(`A pooled connection to ${target.redacted} broke while idle: ${err.message}`));
    this.lockClass = lockClass(target.schema);
  }

  /** The schema, created or migrated on first use (a failure is retried by the next call). */
  ready(): Promise<void> {
    this.schemaReady ??= ensureSchema(this.pool, this.target).catch((err) => {
      this.schemaReady = null;
      throw err;
    });
    return this.schemaReady;
  }

  /** A query on any pooled connection, errors naming `store`. */
  async query<R extends pg.QueryResultRow = pg.QueryResultRow>(store: string | undefined, sql: string, params: unknown[] = []): Promise<pg.QueryResult<R>> {
    await this.ready();
    return pgGuard({ url: this.target.redacted, store }, () => this.pool.query<R>(sql, params));
  }

  /** A connection of its own (a session, a transaction); an error event on it is kept for the next call instead of crashing the process. */
  async connect(store: string | undefined): Promise<pg.PoolClient> {
    await this.ready();
    const client = await pgGuard({ url: this.target.redacted, store }, () => this.pool.connect());
    if (!guarded.has(client)) {
      guarded.add(client); // once per connection: pooled clients come back many times
      // reported by the query that fails next
      client.on('error', (err) => {
        if (!sessionErrors.has(client)) sessionErrors.set(client, err);
      });
    }
    return client;
  }

  /** Runs fn in a transaction on a connection of its own; a broken connection is not returned to the pool. */
  async transaction<T>(store: string | undefined, fn: (client: pg.PoolClient) => Promise<T>, opts: TransactionOptions = {}): Promise<T> {
    const client = await this.connect(store);
    let broken: unknown = undefined;
    try {
      // one message: a process frozen right after BEGIN still has the timeout set
      const idle = opts.idleTimeoutMs;
      await client.query(idle && idle > 0 ? `BEGIN; SET LOCAL idle_in_transaction_session_timeout = ${Math.max(1, Math.ceil(idle))}` : 'BEGIN');
      const out = await fn(client);
      await client.query('COMMIT');
      return out;
    } catch (err) {
      broken = err;
      await client.query('ROLLBACK').catch(() => {});
      const ended = sessionErrors.get(client);
      if (opts.onIdleTimeout && [err, ended].some((e) => (e as { code?: string } | undefined)?.code === IDLE_IN_TRANSACTION_TIMEOUT)) {
        throw opts.onIdleTimeout(err);
      }
      throw translatePgError(err, { url: this.target.redacted, store });
    } finally {
      client.release(broken !== undefined && isConnectionError(broken) ? (broken as Error) : undefined);
    }
  }

  where(store?: string): { url: string; store?: string } {
    return { url: this.target.redacted, store };
  }

  private ended: Promise<void> | null = null;

  /** Closes the pool (once; later calls wait for the same close). */
  end(): Promise<void> {
    this.ended ??= this.pool.end();
    return this.ended;
  }
}

/** True when the error means the connection itself is unusable (it must not go back to the pool). */
export function isConnectionError(err: unknown): boolean {
  const t = translatePgError(err, { url: '' }) as { code?: string };
  return t?.code === 'NUTCH_STORAGE_CONNECTION_LOST' || t?.code === 'NUTCH_STORAGE_UNREACHABLE';
}
