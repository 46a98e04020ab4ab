/**
 * A URL-keyed store (CrawlDb, LinkDb; the HostDb keyed by host name) inside the database: rows of one table carrying the store's
 * id. Readers use pooled connections: lookups by URL, and scans streamed by one COPY in key order
 * (url `COLLATE "C"`: code-point order), read as fast as the caller takes them, so memory is bounded
 * by a few chunks. A session's own scans use keyset pages (`url > $last ORDER BY url LIMIT n`) on
 * its connection, between its other calls.
 *
 * An update session is ONE transaction on a connection of its own, which also holds the writer
 * lock: the session reads its own writes, nobody else sees them before COMMIT, and an abort, an
 * error, a crash of the process or a broken connection leave the previous state (the server rolls
 * back whatever was not committed).
 */
import type pg from 'pg';
import type { Keyed, ScanOptions } from '../interfaces.js';
import { NutchError } from '../../errors.js';
import { KeyedSql, scanPages, type PgRowCodec, type Queryable, type StoreKind } from './pg-keyed-sql.js';
import { isConnectionError, type PgDatabase } from './pg-database.js';
import { copyOut } from './pg-copy-out.js';
import { SessionPuts } from './pg-session-puts.js';
import { StoreWriter } from './pg-store-writer.js';
import { pgGuard } from './pg-errors.js';
import { acquireAdvisoryLock, releaseAdvisoryLock } from './pg-writer-lock.js';

export type { PgRowCodec, StoreKind } from './pg-keyed-sql.js';

export class PgKeyedStore<V> {
  private readonly sql: KeyedSql<V>;
  private id: number | null = null;
  private readonly sessions = new Set<PgKeyedSession<V>>();
  /** Connections of scans under way (closed with the store if their reader never finishes them). */
  private readonly scans = new Set<pg.PoolClient>();
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

  /**
   * The committed store in key order, as one `COPY (SELECT … ORDER BY url) TO STDOUT` on a connection
   * of its own (copyOut): one snapshot, planned once, fields decoded from binary. A scan stopped
   * before its end (or left unfinished when the store is closed) closes its connection, which ends
   * the COPY on the server; one read to the end hands it back to the pool.
   */
  async *scan(opts?: ScanOptions): AsyncGenerator<Keyed<V>> {
    const id = await this.storeId();
    if (id === null) return;
    const client = await this.db.connect(this.name);
    this.scans.add(client);
    let finished = false;
    try {
      const rows = copyOut(client, this.sql.scanSelect(id, opts?.fromUrl), this.sql.rowTypes, Math.max(1, opts?.batchSize ?? this.db.batchSize));
      for (;;) {
        const next = await this.guard(() => rows.next());
        if (next.done) break;
        for (const row of next.value) yield { url: row[0] as string, value: this.sql.fromRow(row) };
      }
      finished = true;
    } finally {
      // close() may have ended the connection already
      if (this.scans.delete(client)) client.release(finished ? undefined : new Error('scan stopped before its end'));
    }
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
    for (const c of this.scans) c.release(new Error('store closed during a scan'));
    this.scans.clear();
    this.closed = true;
  }
}

export class PgKeyedSession<V> {
  private done = false;
  private readonly staging = { created: false };
  /** Session calls run one at a time on the connection (a scan may interleave with puts). */
  private chain: Promise<unknown> = Promise.resolve();
  /**
   * put() turns records into rows at once (so the caller may reuse its objects); they reach the
   * store streamed as they come when they come in URL order, else sorted when a read, a delete or
   * the commit needs them (pg-session-puts.ts).
   */
  private readonly puts: SessionPuts;
  /** Whether the store has no row yet (asked at the first write; null before). */
  private emptyStore: boolean | null = null;
  /**
   * True while everything this session wrote went by one COPY straight into a store that had no
   * row: its rows are then the store's, one per URL, and count() needs no count(*) of the table
   * (which, right after a bulk load, also visits every new row's heap page).
   */
  private countIsWritten = false;

  constructor(
    private readonly db: PgDatabase,
    private readonly name: string,
    private readonly id: number,
    private readonly client: pg.PoolClient,
    private readonly sql: KeyedSql<V>,
    private readonly onEnd: () => void,
  ) {
    this.puts = new SessionPuts(sql.columnCount, () => this.openWriter());
  }

  /** A writer of the session's rows; the first one into a store without rows COPYs straight into the table. */
  private async openWriter(): Promise<StoreWriter> {
    // the session holds the writer lock: nobody else adds rows, so "empty" stays true until this session writes
    const first = this.emptyStore === null;
    const direct = (this.emptyStore ??= await this.sql.isEmpty(this.client, this.id));
    this.emptyStore = false;
    this.countIsWritten = first && direct;
    return new StoreWriter(this.client, this.id, this.sql.writeTarget, direct, this.staging);
  }

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
    if (this.puts.idle) return;
    await this.run(() => this.puts.settle());
  }

  async put(records: readonly Keyed<V>[]): Promise<void> {
    if (this.done) return this.run(async () => {});
    if (records.length === 0) return;
    const rows = records.map((r) => this.sql.sortRow(r.url, r.value));
    return this.run(() => this.puts.add(rows));
  }

  async delete(urls: readonly string[]): Promise<void> {
    if (urls.length === 0) return;
    await this.settle();
    this.countIsWritten = false;
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
    if (this.countIsWritten && !this.done) return this.puts.written;
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
    await this.run(() => this.sql.analyzeIfGrown(this.client, this.puts.written)).catch(() => {});
    await this.end();
  }

  async abort(): Promise<void> {
    if (this.done) return;
    await this.puts.drop();
    await this.run(() => this.client.query('ROLLBACK')).catch(() => {});
    await this.end();
  }

  /** Releases the lock and the connection (a broken connection is destroyed, which also drops the lock). */
  private async end(err?: unknown): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.puts.drop();
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
