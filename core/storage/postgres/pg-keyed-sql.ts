/**
 * The SQL of a URL-keyed store in PostgreSQL: one table per kind (nutch_<kind>) with the store's id,
 * keyset pages in code-point order (url `COLLATE "C"`), a session's records COPYed in key order.
 * The same statements serve readers (the pool) and an update session (its connection);
 * pg-keyed-store.ts holds the store and the session around them.
 */
import type pg from 'pg';
import type { Keyed, ScanOptions } from '../interfaces.js';
import type { CopyType, CopyValue } from './pg-copy.js';
import type { StoreWriteTarget } from './pg-store-writer.js';
import { sqlLiteral } from './pg-copy-out.js';
import type { SortRow } from '../external-sort.js';

export interface PgRowCodec<V> {
  /** nutch_stores.kind and the table: nutch_<kind>. */
  kind: StoreKind;
  /** Value columns (after store and url). */
  columns: readonly string[];
  types: readonly CopyType[];
  toRow(value: V): CopyValue[];
  /** The value of a row read back: the URL at 0, then the value columns in `columns` order. */
  fromRow(row: readonly unknown[]): V;
}

/** nutch_stores.kind of the key-ordered stores. */
export type StoreKind = 'crawldb' | 'linkdb' | 'hostdb';

/** Merged rows below which a session never analyses its table (small stores plan well enough either way). */
const ANALYZE_MIN_ROWS = 10_000;

const SQL_TYPES: Record<CopyType, string> = { text: 'text', bytea: 'bytea', int2: 'smallint', int4: 'integer', int8: 'bigint', float8: 'double precision', bool: 'boolean' };

export interface Queryable {
  query<R extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<pg.QueryResult<R>>;
  query<R extends unknown[]>(config: pg.QueryArrayConfig): Promise<pg.QueryArrayResult<R>>;
}

/** The SQL of one store: the same statements serve readers (pool) and the session (its connection). */
export class KeyedSql<V> {
  readonly table: string;
  private readonly cols: string;

  /** Value columns of a row (after the URL). */
  get columnCount(): number {
    return this.codec.columns.length;
  }

  constructor(private readonly codec: PgRowCodec<V>) {
    this.table = `nutch_${codec.kind}`;
    this.cols = ['url', ...codec.columns].join(', ');
  }

  async getMany(q: Queryable, store: number, urls: readonly string[]): Promise<Map<string, V>> {
    const out = new Map<string, V>();
    for (let i = 0; i < urls.length; i += 5000) {
      const r = await q.query<unknown[]>(this.statement('get', `SELECT ${this.cols} FROM ${this.table} WHERE store = $1 AND url = ANY($2::text[])`, [store, urls.slice(i, i + 5000)]));
      for (const row of r.rows) out.set(row[0] as string, this.codec.fromRow(row));
    }
    return out;
  }

  async page(q: Queryable, store: number, size: number, after?: string, from?: string): Promise<Keyed<V>[]> {
    const r = after !== undefined
      ? await q.query<unknown[]>(this.statement('after', `SELECT ${this.cols} FROM ${this.table} WHERE store = $1 AND url > $2 ORDER BY url COLLATE "C" LIMIT $3`, [store, after, size]))
      : from !== undefined
        ? await q.query<unknown[]>(this.statement('from', `SELECT ${this.cols} FROM ${this.table} WHERE store = $1 AND url >= $2 ORDER BY url COLLATE "C" LIMIT $3`, [store, from, size]))
        : await q.query<unknown[]>(this.statement('first', `SELECT ${this.cols} FROM ${this.table} WHERE store = $1 ORDER BY url COLLATE "C" LIMIT $2`, [store, size]));
    return r.rows.map((row) => ({ url: row[0] as string, value: this.codec.fromRow(row) }));
  }

  /**
   * A read statement: rows as arrays (no object per row) and prepared once per connection under a
   * name of its own (a keyset scan runs the same statement a thousand times: parsed and planned once).
   */
  private statement(name: string, text: string, values: unknown[]): pg.QueryArrayConfig {
    return { name: `${this.table}_${name}`, text, values, rowMode: 'array' };
  }

  /** The whole store (from `from` on) in key order, for a COPY TO scan (copyOut: literals, not parameters). */
  scanSelect(store: number, from?: string): string {
    const where = from !== undefined ? ` AND url >= ${sqlLiteral(from)}` : '';
    return `SELECT ${this.cols} FROM ${this.table} WHERE store = ${Number(store)}${where} ORDER BY url COLLATE "C"`;
  }

  /** COPY types of a row read back (the URL, then the value columns). */
  get rowTypes(): CopyType[] {
    return ['text', ...this.codec.types];
  }

  fromRow(row: readonly unknown[]): V {
    return this.codec.fromRow(row);
  }

  async count(q: Queryable, store: number): Promise<number> {
    const r = await q.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.table} WHERE store = $1`, [store]);
    return Number(r.rows[0]!.n);
  }

  /** A put record as an external-sort row: the URL (the sort key), then the value columns. */
  sortRow(url: string, value: V): SortRow {
    const row = this.codec.toRow(value) as unknown[];
    row.unshift(url);
    return row as SortRow;
  }

  /** Where a session's rows go (pg-store-writer.ts): the table, and its staging table for a store with rows. */
  get writeTarget(): StoreWriteTarget {
    return {
      table: this.table,
      staging: `nutch_put_${this.codec.kind}`,
      columns: this.codec.columns,
      types: this.codec.types,
      stagingColumns: this.codec.columns.map((c, i) => `${c} ${SQL_TYPES[this.codec.types[i]!]}`).join(', '),
    };
  }

  /**
   * Refreshes the planner's statistics of the table when a session's merges grew it by more than
   * a tenth (autovacuum's own analyze threshold), or it was never analysed. Without them, the
   * planner knows nothing of the rows a first inject added and reads a 1,000-URL getMany() with a
   * sequential scan of the whole table (generate right after inject at 1,000,000 URLs: 0.7-1 s per
   * lookup instead of a few ms) until autovacuum gets to it. Run after COMMIT (VACUUM cannot run
   * in a transaction, and its lock is then held for its own pass, not for a whole session).
   *
   * VACUUM with it: rows just written carry no hint bits, so the first statement to read each of
   * them looks its transaction up and dirties its page — a whole-table cost that otherwise lands on
   * the next stage (generate's scan right after inject of 1,000,000 URLs: 10.9 -> 17.5 s at load
   * 17) and is paid here in one pass that also sets the visibility map and removes the versions an
   * updating session left (what autovacuum would do later).
   */
  async analyzeIfGrown(client: pg.PoolClient, merged: number): Promise<void> {
    if (merged < ANALYZE_MIN_ROWS) return;
    const r = await client.query<{ n: number }>('SELECT reltuples::float8 AS n FROM pg_class WHERE oid = $1::regclass', [this.table]);
    const estimated = r.rows[0]?.n ?? -1;
    if (estimated >= 0 && merged < estimated * 0.1) return;
    // the engine's statements filter and order by (store, url) only: their statistics are what the planner needs
    await client.query(`VACUUM (ANALYZE) ${this.table} (store, url)`);
  }

  /** True when the store has no row (as the session sees it). */
  async isEmpty(q: Queryable, store: number): Promise<boolean> {
    const r = await q.query(`SELECT 1 FROM ${this.table} WHERE store = $1 LIMIT 1`, [store]);
    return (r.rowCount ?? 0) === 0;
  }

  async delete(client: pg.PoolClient, store: number, urls: readonly string[]): Promise<void> {
    for (let i = 0; i < urls.length; i += 5000) {
      await client.query(`DELETE FROM ${this.table} WHERE store = $1 AND url = ANY($2::text[])`, [store, urls.slice(i, i + 5000)]);
    }
  }
}

/**
 * Keyset-paged scan (an update session's own scans, between its other calls on its connection):
 * each page one query, the next starting after the last URL seen. With `readAhead` the next page is
 * requested before the current one is handed out: two pages in memory at most.
 */
export async function* scanPages<V>(fetch: (size: number, after?: string, from?: string) => Promise<Keyed<V>[]>, defaultBatch: number, opts: ScanOptions = {}, readAhead = false): AsyncGenerator<Keyed<V>> {
  const size = Math.max(1, opts.batchSize ?? defaultBatch);
  let page = await fetch(size, undefined, opts.fromUrl);
  while (page.length > 0) {
    const last = page[page.length - 1]!.url;
    const more = page.length === size;
    let next: Promise<Keyed<V>[]> | null = null;
    if (more && readAhead) {
      next = fetch(size, last);
      next.catch(() => {}); // reported when awaited; a caller that stops early never awaits it
    }
    for (const rec of page) yield rec;
    if (!more) return;
    page = await (next ?? fetch(size, last));
  }
}

