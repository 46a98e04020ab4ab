/**
 * Where a segment's records live, behind a small interface: the engine keeps CrawlDatum parts
 * (crawl_generate, crawl_fetch, crawl_parse) in one implementation and content and parse records
 * (content, parse_data, parse_text) in another — the content store — so that large values can move
 * to object storage later (blobs in a bucket, their keys in rows) without touching segments.
 *
 * Writes take the caller's transaction: a fenced fetch batch checks its claim and stores its
 * records in one transaction, whatever store holds them. Records keep insertion order per
 * partition (`seq`); several may share a URL.
 */
import type pg from 'pg';
import type { Keyed } from '../interfaces.js';
import { copyRows } from './pg-copy.js';

/** One partition of one part of one segment. */
export interface PartitionKey {
  segment: number;
  part: number;
  partition: number;
}

export interface StoredRecord {
  seq: number;
  url: string;
  value: Buffer;
}

export interface SegmentRecordStore {
  /** Appends encoded records inside the caller's transaction (or as one statement when `client` is the pool). */
  append(client: pg.PoolClient, key: PartitionKey, records: readonly Keyed<Buffer>[]): Promise<void>;
  /** Up to `limit` records after `afterSeq`, in insertion order. */
  page(key: PartitionKey, afterSeq: number, limit: number): Promise<StoredRecord[]>;
  /** A query (for copyOut: literals only) of a part's `url, value` in URL order, a URL's records by partition and insertion. */
  sortedSelect(segment: number, part: number): string;
  /** Every record of a URL in a part, partition by partition, in insertion order. */
  get(segment: number, part: number, url: string): Promise<Buffer[]>;
  /** Records in a part (one partition, or all). */
  count(segment: number, part: number, partition?: number): Promise<number>;
  /** Which of `urls` the partition holds. */
  storedAmong(key: PartitionKey, urls: readonly string[]): Promise<Set<string>>;
  /** Removes a part's records (all partitions). */
  dropPart(client: pg.PoolClient, segment: number, part: number): Promise<void>;
  /** Removes every record of a segment. */
  dropSegment(client: pg.PoolClient, segment: number): Promise<void>;
}

/** Records as bytea rows of one table; PostgreSQL's TOAST keeps large values out of line, compressed. */
export class PgRecordTable implements SegmentRecordStore {
  constructor(private readonly pool: pg.Pool, private readonly table: string) {}

  async append(client: pg.PoolClient, key: PartitionKey, records: readonly Keyed<Buffer>[]): Promise<void> {
    if (records.length === 0) return;
    const rows = (function* () {
      for (const r of records) yield [key.segment, key.part, key.partition, r.url, r.value];
    })();
    await copyRows(client, this.table, ['segment', 'part', 'partition', 'url', 'value'], ['int4', 'int2', 'int4', 'text', 'bytea'], rows);
  }

  async page(key: PartitionKey, afterSeq: number, limit: number): Promise<StoredRecord[]> {
    // rows as arrays, the statement prepared once per connection (a part is read a page at a time)
    const r = await this.pool.query<[string, string, Buffer]>({
      name: `${this.table}_page`,
      text: `SELECT seq, url, value FROM ${this.table} WHERE segment = $1 AND part = $2 AND partition = $3 AND seq > $4 ORDER BY seq LIMIT $5`,
      values: [key.segment, key.part, key.partition, afterSeq, limit],
      rowMode: 'array',
    });
    return r.rows.map((row) => ({ seq: Number(row[0]), url: row[1], value: row[2] }));
  }

  sortedSelect(segment: number, part: number): string {
    return `SELECT url, value FROM ${this.table} WHERE segment = ${Number(segment)} AND part = ${Number(part)} ORDER BY url COLLATE "C", partition, seq`;
  }

  async get(segment: number, part: number, url: string): Promise<Buffer[]> {
    const r = await this.pool.query<{ value: Buffer }>(
      `SELECT value FROM ${this.table} WHERE segment = $1 AND part = $2 AND url = $3 ORDER BY partition, seq`, [segment, part, url]);
    return r.rows.map((row) => row.value);
  }

  async count(segment: number, part: number, partition?: number): Promise<number> {
    const r = partition === undefined
      ? await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.table} WHERE segment = $1 AND part = $2`, [segment, part])
      : await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.table} WHERE segment = $1 AND part = $2 AND partition = $3`, [segment, part, partition]);
    return Number(r.rows[0]!.n);
  }

  async storedAmong(key: PartitionKey, urls: readonly string[]): Promise<Set<string>> {
    if (urls.length === 0) return new Set();
    const r = await this.pool.query<{ url: string }>(
      `SELECT DISTINCT url FROM ${this.table} WHERE segment = $1 AND part = $2 AND partition = $3 AND url = ANY($4::text[])`,
      [key.segment, key.part, key.partition, urls]);
    return new Set(r.rows.map((row) => row.url));
  }

  async dropPart(client: pg.PoolClient, segment: number, part: number): Promise<void> {
    await client.query(`DELETE FROM ${this.table} WHERE segment = $1 AND part = $2`, [segment, part]);
  }

  async dropSegment(client: pg.PoolClient, segment: number): Promise<void> {
    await client.query(`DELETE FROM ${this.table} WHERE segment = $1`, [segment]);
  }
}
