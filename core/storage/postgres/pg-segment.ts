/**
 * A segment inside the database: a nutch_segments row (its name, its directory — the segments path
 * commands are given — and its partition count, stored when crawl_generate is written), one
 * nutch_segment_partitions row per partition of each part (its total and its finished flag: a part
 * is complete, Nutch's `_SUCCESS`, once partitions 0..total-1 are all finished), and the records in a
 * SegmentRecordStore: CrawlDatum parts in one, content and parse records in the content store.
 */
import type { FetchPartitions, Keyed, PartitionClaim, Segment, SegmentPartName, SegmentPartTypes, SegmentPartWriter } from '../interfaces.js';
import { SEGMENT_PARTS } from '../interfaces.js';
import { NutchError } from '../../errors.js';
import { decodeValue, encodeDatum, encodeValue } from '../value-codec.js';
import type { PgDatabase } from './pg-database.js';
import { pgGuard } from './pg-errors.js';
import { PgFetchPartitions, fenceCheck, idleLimitMs } from './pg-fetch-partitions.js';
import { leaseIdledOut } from '../partition-claim.js';
import type { SegmentRecordStore, StoredRecord } from './record-store.js';
import type pg from 'pg';
import { copyOut } from './pg-copy-out.js';

/** The parts whose values are CrawlDatums, in the compact datum layout; the others go to the content store. */
const DATUM_PARTS = new Set<SegmentPartName>(['crawl_generate', 'crawl_fetch', 'crawl_parse']);
/** Bytes per read page (content and parse text pages stay near this instead of batchSize rows). */
const PAGE_BYTES = 4 * 1024 * 1024;
const FIRST_READ_ROWS = 100;
/** Encoded bytes per COPY of an append: a batch of large pages is sent in several statements of one transaction. */
const APPEND_BYTES = 8 * 1024 * 1024;

export interface SegmentStores {
  db: PgDatabase;
  /** CrawlDatum parts. */
  datums: SegmentRecordStore;
  /** Content and parse records (the content store seam). */
  content: SegmentRecordStore;
}

export function partCode(part: SegmentPartName): number {
  const i = SEGMENT_PARTS.indexOf(part);
  if (i < 0) throw new NutchError('NUTCH_USAGE', `Unknown segment part "${part}"; parts are ${SEGMENT_PARTS.join(', ')}.`);
  return i;
}

export class PgSegment implements Segment {
  private claims: PgFetchPartitions | null = null;

  constructor(protected readonly stores: SegmentStores, readonly id: number, readonly name: string, readonly path: string) {}

  private get db(): PgDatabase {
    return this.stores.db;
  }

  private storeOf(part: SegmentPartName): SegmentRecordStore {
    return DATUM_PARTS.has(part) ? this.stores.datums : this.stores.content;
  }

  private guard<T>(fn: () => Promise<T>): Promise<T> {
    return pgGuard(this.db.where(this.path), fn);
  }

  async partitions(part: SegmentPartName): Promise<number[]> {
    const r = await this.db.query<{ partition: number }>(this.path, 'SELECT partition FROM nutch_segment_partitions WHERE segment = $1 AND part = $2 ORDER BY partition', [this.id, part]);
    return r.rows.map((row) => row.partition);
  }

  async partitionCount(): Promise<number> {
    const r = await this.db.query<{ partition_count: number }>(this.path, 'SELECT partition_count FROM nutch_segments WHERE id = $1', [this.id]);
    return r.rows[0]?.partition_count ?? 0;
  }

  async isComplete(part: SegmentPartName): Promise<boolean> {
    const r = await this.db.query<{ total: number | null; finished: string }>(this.path,
      `SELECT max(total) AS total, count(*) FILTER (WHERE finished AND partition < total) AS finished
         FROM nutch_segment_partitions WHERE segment = $1 AND part = $2`, [this.id, part]);
    const row = r.rows[0]!;
    return row.total !== null && row.total > 0 && Number(row.finished) >= row.total;
  }

  async hasPart(part: SegmentPartName): Promise<boolean> {
    const r = await this.db.query(this.path, 'SELECT 1 FROM nutch_segment_partitions WHERE segment = $1 AND part = $2 LIMIT 1', [this.id, part]);
    return (r.rowCount ?? 0) > 0;
  }

  async dropPart(part: SegmentPartName): Promise<void> {
    await this.db.transaction(this.path, async (c) => {
      await this.storeOf(part).dropPart(c, this.id, partCode(part));
      await c.query('DELETE FROM nutch_segment_partitions WHERE segment = $1 AND part = $2', [this.id, part]);
    });
  }

  fetchPartitions(): FetchPartitions {
    this.claims ??= new PgFetchPartitions(this.db, this.id, this.path);
    return this.claims;
  }

  async openWriter<P extends SegmentPartName>(part: P, partition: number, opts: { totalPartitions?: number; fence?: PartitionClaim } = {}): Promise<SegmentPartWriter<SegmentPartTypes[P]>> {
    if (!Number.isInteger(partition) || partition < 0) {
      throw new NutchError('NUTCH_USAGE', `Partition number must be a non-negative integer, got ${partition} for ${part} of ${this.path}.`);
    }
    const code = partCode(part);
    await this.db.transaction(this.path, async (c) => {
      const existing = (await c.query<{ total: number }>('SELECT total FROM nutch_segment_partitions WHERE segment = $1 AND part = $2 AND partition = $3', [this.id, part, partition])).rows[0];
      let t = opts.totalPartitions ?? existing?.total;
      if (t === undefined) {
        const count = (await c.query<{ partition_count: number }>('SELECT partition_count FROM nutch_segments WHERE id = $1', [this.id])).rows[0]?.partition_count ?? 0;
        t = part === 'crawl_generate' ? 1 : Math.max(1, count);
      }
      await c.query(
        `INSERT INTO nutch_segment_partitions (segment, part, partition, total) VALUES ($1, $2, $3, $4)
         ON CONFLICT (segment, part, partition) DO UPDATE SET total = EXCLUDED.total`, [this.id, part, partition, t]);
      // the partition count lives with the segment from the moment crawl_generate is written
      if (part === 'crawl_generate') await c.query('UPDATE nutch_segments SET partition_count = $2 WHERE id = $1', [this.id, t]);
    });
    const store = this.storeOf(part);
    const encode = (DATUM_PARTS.has(part) ? encodeDatum : encodeValue) as (v: SegmentPartTypes[P]) => Buffer;
    const key = { segment: this.id, part: code, partition };
    const fence = opts.fence;
    // a worker frozen inside a fenced write must not hold the partition's row locks past its lease
    const fenced = fence?.leaseMs ? { idleTimeoutMs: idleLimitMs(fence.leaseMs), onIdleTimeout: (err: unknown) => leaseIdledOut(fence, this.path, err) } : {};
    let closed = false;
    const check = () => {
      if (closed) throw new NutchError('NUTCH_CLOSED', `The writer of ${part}/${partition} of ${this.path} was used after close().`, { segment: this.path });
    };
    return {
      append: async (records: readonly Keyed<SegmentPartTypes[P]>[]) => {
        check();
        if (records.length === 0) return;
        const encoded: Keyed<Buffer>[] = records.map((r) => ({ url: r.url, value: encode(r.value) }));
        // one transaction per append: the batch is stored whole or not at all, and only while the claim is current
        await this.db.transaction(this.path, async (c) => {
          let from = 0;
          let bytes = 0;
          for (let i = 0; i < encoded.length; i++) {
            bytes += encoded[i]!.value.length;
            if (bytes >= APPEND_BYTES || i === encoded.length - 1) {
              await store.append(c, key, encoded.slice(from, i + 1));
              from = i + 1;
              bytes = 0;
            }
          }
          // the claim's row is locked only now, just before COMMIT: a worker frozen in the middle of a COPY
          // (which no server timeout ends) then holds no lock that keeps the partition from a takeover
          if (fence) await fenceCheck(c, this.id, fence, this.path);
        }, fenced);
      },
      finish: async () => {
        check();
        await this.db.transaction(this.path, async (c) => {
          if (fence) await fenceCheck(c, this.id, fence, this.path);
          await c.query('UPDATE nutch_segment_partitions SET finished = true WHERE segment = $1 AND part = $2 AND partition = $3', [this.id, part, partition]);
        }, fenced);
      },
      close: async () => {
        closed = true;
      },
    };
  }

  async *read<P extends SegmentPartName>(part: P, opts: { partition?: number; batchSize?: number } = {}): AsyncGenerator<Keyed<SegmentPartTypes[P]>> {
    const parts = opts.partition !== undefined ? [opts.partition] : await this.partitions(part);
    const store = this.storeOf(part);
    const batch = Math.max(1, opts.batchSize ?? this.db.batchSize);
    for (const partition of parts) {
      const key = { segment: this.id, part: partCode(part), partition };
      let limit = Math.min(batch, FIRST_READ_ROWS);
      let next: Promise<StoredRecord[]> | null = this.guard(() => store.page(key, 0, limit));
      while (next) {
        const rows: StoredRecord[] = await next;
        next = null;
        if (rows.length === 0) break;
        if (rows.length >= limit) {
          // the next page is asked for before this one is handed out: the caller's work overlaps the server's
          let bytes = 0;
          for (const row of rows) bytes += row.value.length;
          const after: number = rows[rows.length - 1]!.seq;
          limit = Math.max(1, Math.min(batch, Math.floor(PAGE_BYTES / Math.max(1, bytes / rows.length))));
          const size = limit;
          next = this.guard((): Promise<StoredRecord[]> => store.page(key, after, size));
          next.catch(() => {}); // reported when awaited; a reader that stops early never awaits it
        }
        for (const row of rows) yield { url: row.url, value: decodeValue<SegmentPartTypes[P]>(row.value) };
      }
    }
  }

  /** Connections of sorted reads under way (ended by close() if their reader never finishes them). */
  private readonly sortedReads = new Set<pg.PoolClient>();

  /**
   * One `COPY (SELECT … ORDER BY url, partition, seq) TO STDOUT`: the server sorts (in C, spilling
   * to its temporary files past work_mem) what the process would otherwise sort in JavaScript, and
   * streams it as the reader takes it, on a connection of its own (see PgKeyedStore.scan).
   */
  async *readSorted<P extends SegmentPartName>(part: P): AsyncGenerator<Keyed<SegmentPartTypes[P]>> {
    const client = await this.db.connect(this.path);
    this.sortedReads.add(client);
    let finished = false;
    try {
      const rows = copyOut(client, this.storeOf(part).sortedSelect(this.id, partCode(part)), ['text', 'bytea'], this.db.batchSize);
      for (;;) {
        const next = await this.guard(() => rows.next());
        if (next.done) break;
        for (const row of next.value) yield { url: row[0] as string, value: decodeValue<SegmentPartTypes[P]>(row[1] as Buffer) };
      }
      finished = true;
    } finally {
      if (this.sortedReads.delete(client)) client.release(finished ? undefined : new Error('sorted read stopped before its end'));
    }
  }

  async storedAmong(part: SegmentPartName, partition: number, urls: readonly string[]): Promise<Set<string>> {
    await this.db.ready();
    return this.guard(() => this.storeOf(part).storedAmong({ segment: this.id, part: partCode(part), partition }, urls));
  }

  async count(part: SegmentPartName, partition?: number): Promise<number> {
    await this.db.ready();
    return this.guard(() => this.storeOf(part).count(this.id, partCode(part), partition));
  }

  async get<P extends SegmentPartName>(part: P, url: string): Promise<SegmentPartTypes[P][]> {
    await this.db.ready();
    const values = await this.guard(() => this.storeOf(part).get(this.id, partCode(part), url));
    return values.map((v) => decodeValue<SegmentPartTypes[P]>(v));
  }

  async readMeta(): Promise<Record<string, string>> {
    const r = await this.db.query<{ meta: Record<string, unknown> }>(this.path, 'SELECT meta FROM nutch_segments WHERE id = $1', [this.id]);
    const meta = r.rows[0]?.meta ?? {};
    return Object.fromEntries(Object.entries(meta).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }

  /** One UPDATE: jsonb's `||` merges the entries in, atomically. */
  async writeMeta(entries: Record<string, string>): Promise<void> {
    await this.db.query(this.path, 'UPDATE nutch_segments SET meta = meta || $2::jsonb WHERE id = $1', [this.id, JSON.stringify(entries)]);
  }

  /** Ends sorted reads never finished (their connections); every other call borrows a connection per statement. */
  async close(): Promise<void> {
    this.claims = null;
    for (const c of this.sortedReads) c.release(new Error('segment closed during a sorted read'));
    this.sortedReads.clear();
  }
}
