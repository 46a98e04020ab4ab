/**
 * A URL-keyed store (CrawlDb, LinkDb; the HostDb keyed by host name) inside the database: rows of one table carrying the store's
 * id. Readers use pooled connections and keyset pages (`url > $last ORDER BY url LIMIT n`, url
 * `COLLATE "C"`), so memory is bounded by the page size and order is code-point order.
 *
 * An update session is ONE transaction on a connection of its own, which also holds the writer
 * lock: the session reads its own writes, nobody else sees them before COMMIT, and an abort, an
 * error, a crash of the process or a broken connection leave the previous state (the server rolls
 * back whatever was not committed).
 */
import type pg from 'pg';
import type { Keyed, ScanOptions } from '../interfaces.js';
import { NutchError } from '../../errors.js';
import { ExternalSort, type SortRow } from '../external-sort.js';
import { KeyedSql, scanPages, type PgRowCodec, type Queryable, type StoreKind } from './pg-keyed-sql.js';
import { isConnectionError, type PgDatabase } from './pg-database.js';
import { pgGuard } from './pg-errors.js';
import { acquireAdvisoryLock, releaseAdvisoryLock } from './pg-writer-lock.js';

export type { PgRowCodec, StoreKind } from './pg-keyed-sql.js';

export class PgKeyedStore<V> {
  private readonly sql: KeyedSql<V>;
  private id: number | null = null;
  private readonly sessions = new Set<PgKeyedSession<V>>();
  private closed = false;

  constructor(private readonly db: PgDatabase, readonly name: string, codec: PgRowCodec<V>, private readonly kind: StoreKind) {
    this.sql = new KeyedSql(codec);
  }

  private check(): void {
    if (this.closed) throw new NutchError('NUTCH_CLOSED', `${this.name} was used after close().`, { store: this.name });
  }

  /** The store's id once a session committed, else null (nothing to read). */
  private async storeId(): Promise<number | null> {
    this.check();
    if (this.id !== null) return this.id;
    const r = await this.db.query<{ id: number }>(this.name, 'SELECT id FROM nutch_stores WHERE kind = $1 AND name = $2 AND written', [this.kind, this.name]);
    this.id = r.rows[0]?.id ?? null;
    return this.id;
  }

  private guard<T>(fn: () => Promise<T>): Promise<T> {
    return pgGuard(this.db.where(this.name), fn);
  }

  async exists(): Promise<boolean> {
    return (await this.storeId()) !== null;
  }

  async get(url: string): Promise<V | null> {
    return (await this.getMany([url])).get(url) ?? null;
  }

  async getMany(urls: readonly string[]): Promise<Map<string, V>> {
    const id = await this.storeId();
    if (id === null || urls.length === 0) return new Map();
    return this.guard(() => this.sql.getMany(this.db.pool, id, urls));
  }

  async *scan(opts?: ScanOptions): AsyncGenerator<Keyed<V>> {
    const id = await this.storeId();
    if (id === null) return;
    yield* scanPages((size, after, from) => this.guard(() => this.sql.page(this.db.pool, id, size, after, from)), this.db.batchSize, opts, true);
  }

  async count(): Promise<number> {
    const id = await this.storeId();
    return id === null ? 0 : this.guard(() => this.sql.count(this.db.pool, id));
  }

  async beginSession(opts: { force?: boolean } = {}): Promise<PgKeyedSession<V>> {
    this.check();
    // the store's row exists before its first commit (it keys the lock); `written` says whether it was ever committed
    const idRow = await this.db.query<{ id: number }>(this.name,
      `INSERT INTO nutch_stores (kind, name) VALUES ($1, $2) ON CONFLICT (kind, name) DO UPDATE SET kind = EXCLUDED.kind RETURNING id`, [this.kind, this.name]);
    const id = idRow.rows[0]!.id;
    const client = await this.db.connect(this.name);
    try {
      await this.guard(async () => {
        await acquireAdvisoryLock(this.db, client, id, this.name, opts.force ?? false);
        await client.query('BEGIN');
      });
    } catch (err) {
      client.release(isConnectionError(err) ? (err as Error) : undefined);
      throw err;
    }
    const session = new PgKeyedSession<V>(this.db, this.name, id, client, this.sql, () => {
      this.sessions.delete(session);
      this.id = null; // re-read: the first commit makes the store exist
    });
    this.sessions.add(session);
    return session;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    for (const s of [...this.sessions]) await s.abort();
    this.closed = true;
  }
}

/** Rows per sorted run of a session's puts. */
const RUN_ROWS = 8192;
/** Value bytes (about) after which a run is cut short (large LinkDb values). */
const RUN_BYTES = 8 << 20;

export class PgKeyedSession<V> {
  private done = false;
  private readonly staging = { created: false };
  /** Session calls run one at a time on the connection (a scan may interleave with puts). */
  private chain: Promise<unknown> = Promise.resolve();
  /**
   * put() sorts: records are turned into rows at once (so the caller may reuse its objects) and go
   * into an external sort by URL (runs spilled to a scratch file, so memory stays bounded). They
   * reach the store when a read, a delete or the commit needs them, in ONE COPY in key order, the
   * last record of a URL winning: the server neither sorts nor deduplicates, and a stage that only
   * writes (inject, updatedb, generate's marks) never waits for the server before its commit.
   */
  private pending: ExternalSort | null = null;
  private pendingBytes = 0;
  /** Records written to the store by this session (for analyzeIfGrown after the commit). */
  private merged = 0;
  /** Whether the store has no row yet (asked at the first write; null before). */
  private emptyStore: boolean | null = null;

  constructor(
    private readonly db: PgDatabase,
    private readonly name: string,
    private readonly id: number,
    private readonly client: pg.PoolClient,
    private readonly sql: KeyedSql<V>,
    private readonly onEnd: () => void,
  ) {}

  /** Why the session ended early (its connection broke): later calls report that, not a mere "closed". */
  private lost: unknown = null;

  private run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.done) {
      return Promise.reject(this.lost ?? new NutchError('NUTCH_CLOSED', 'The update session was already committed or aborted.', { store: this.name }));
    }
    const next = this.chain.then(() => pgGuard(this.db.where(this.name), fn)).catch(async (err) => {
      // a broken connection ends the session at once: the server rolled it back and dropped the lock
      if (isConnectionError(err) && !this.done) {
        this.lost = err;
        await this.end(err);
      }
      throw err;
    });
    this.chain = next.catch(() => {});
    return next;
  }

  /** Every record put so far in the store (reads, delete, count, commit). */
  private async settle(): Promise<void> {
    const sort = this.pending;
    if (!sort) return;
    this.pending = null;
    this.pendingBytes = 0;
    this.merged += sort.size;
    try {
      await this.run(async () => {
        // the session holds the writer lock: nobody else adds rows, so "empty" stays true until this write
        this.emptyStore ??= await this.sql.isEmpty(this.client, this.id);
        await this.sql.write(this.client, this.id, lastOfEachUrl(sort.sorted()), this.emptyStore, this.staging);
        this.emptyStore = false;
      });
    } finally {
      sort.close();
    }
  }

  private dropPending(): void {
    this.pending?.close();
    this.pending = null;
    this.pendingBytes = 0;
  }

  async put(records: readonly Keyed<V>[]): Promise<void> {
    if (this.done) return this.run(async () => {});
    if (records.length === 0) return;
    const sort = (this.pending ??= new ExternalSort({ columns: this.sql.columnCount, runSize: RUN_ROWS, memoryRows: 0, pageSize: 16 }));
    for (const r of records) {
      const row = this.sql.sortRow(r.url, r.value);
      sort.add(row);
      this.pendingBytes += rowBytes(row);
      if (this.pendingBytes >= RUN_BYTES) {
        sort.endRun();
        this.pendingBytes = 0;
      }
    }
  }

  async delete(urls: readonly string[]): Promise<void> {
    if (urls.length === 0) return;
    await this.settle();
    return this.run(() => this.sql.delete(this.client, this.id, urls));
  }

  async get(url: string): Promise<V | null> {
    return (await this.getMany([url])).get(url) ?? null;
  }

  /** The store's rows as this session sees them (its records put so far written first). */
  async getMany(urls: readonly string[]): Promise<Map<string, V>> {
    await this.settle();
    return this.run(() => this.sql.getMany(this.client, this.id, urls));
  }

  /** Records in the store as this session sees it (its own writes included). */
  async count(): Promise<number> {
    if (!this.done) await this.settle();
    return this.run(() => this.sql.count(this.client, this.id));
  }

  scan(opts?: ScanOptions): AsyncGenerator<Keyed<V>> {
    if (this.done) throw new NutchError('NUTCH_CLOSED', 'The update session was already committed or aborted.', { store: this.name });
    const self = this;
    return (async function* () {
      await self.settle();
      yield* scanPages((size, after, from) => self.run(() => self.sql.page(self.client, self.id, size, after, from)), self.db.batchSize, opts);
    })();
  }

  async commit(): Promise<void> {
    if (!this.done) await this.settle().catch(async (err) => { await this.end(err); throw err; });
    await this.run(async () => {
      await this.client.query('UPDATE nutch_stores SET written = true WHERE id = $1', [this.id]);
      await this.client.query('COMMIT');
    }).catch(async (err) => {
      await this.end(err);
      throw err;
    });
    // committed: fresher planner statistics are only an optimisation, so a failure here is not the stage's
    await this.run(() => this.sql.analyzeIfGrown(this.client, this.merged)).catch(() => {});
    await this.end();
  }

  async abort(): Promise<void> {
    if (this.done) return;
    this.dropPending();
    await this.run(() => this.client.query('ROLLBACK')).catch(() => {});
    await this.end();
  }

  /** Releases the lock and the connection (a broken connection is destroyed, which also drops the lock). */
  private async end(err?: unknown): Promise<void> {
    if (this.done) return;
    this.done = true;
    this.dropPending();
    let broken = err !== undefined && isConnectionError(err);
    if (!broken) {
      try {
        if (err !== undefined) await this.client.query('ROLLBACK');
        await releaseAdvisoryLock(this.db, this.client, this.id);
      } catch {
        broken = true;
      }
    }
    this.client.release(broken ? new Error('session connection closed') : undefined);
    this.onEnd();
  }
}

/** The last row of each URL of a sorted stream (a stable sort keeps a URL's rows in the order they were put). */
function* lastOfEachUrl(rows: Iterable<SortRow>): Generator<SortRow> {
  let prev: SortRow | null = null;
  for (const row of rows) {
    if (prev !== null && prev[0] !== row[0]) yield prev;
    prev = row;
  }
  if (prev !== null) yield prev;
}

/** About how many bytes a row holds (strings and bytes; numbers count 8). */
function rowBytes(row: SortRow): number {
  let n = 0;
  for (const v of row) n += typeof v === 'string' ? v.length : v instanceof Uint8Array ? v.byteLength : 8;
  return n;
}

/** The session as the interface's update object (CrawlDbUpdate and LinkDbUpdate have the same shape). */
export function sessionView<V>(s: PgKeyedSession<V>) {
  return {
    put: (records: readonly Keyed<V>[]) => s.put(records),
    delete: (urls: readonly string[]) => s.delete(urls),
    get: (url: string) => s.get(url),
    getMany: (urls: readonly string[]) => s.getMany(urls),
    count: () => s.count(),
    scan: (opts?: ScanOptions) => s.scan(opts),
    commit: () => s.commit(),
    abort: () => s.abort(),
  };
}
