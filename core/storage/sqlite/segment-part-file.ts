/**
 * One partition file of a segment part (`<segment>/<part>/part-0000N`): records in insertion order
 * (several may share a URL), an index on url for get(), and a small meta table holding the partition
 * count and the finished flag. The url index is built when the writer finishes: one sorted build is
 * an order of magnitude cheaper than keeping it up to date through hundreds of thousands of appends
 * in random URL order (crawl_parse gets one row per outlink). get() on a part still being written
 * scans instead.
 */
import fs from 'node:fs';
import type { Keyed, PartitionClaim } from '../interfaces.js';
import { leaseLost } from './sqlite-fetch-partitions.js';
import { guard, openDatabase, type SqliteDatabase } from './open-database.js';
import { decodeValue, encodeValue } from '../value-codec.js';

const URL_INDEX = 'CREATE INDEX IF NOT EXISTS records_url ON records(url)';
import { yieldToEventLoop } from '../yield.js';

export const PART_SCHEMA = `
CREATE TABLE IF NOT EXISTS records (id INTEGER PRIMARY KEY, url TEXT NOT NULL, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
`;

/** Rows or bytes per write transaction, whichever is reached first. */
const CHUNK_ROWS = 500;
const CHUNK_BYTES = 4 * 1024 * 1024;
/** Page cache per partition file: appends and sequential reads need little, and a stage has several open. */
const PART_CACHE_KIB = 2000;
/** The first read page, before the average row size is known. */
const FIRST_READ_ROWS = 100;

export function partitionFileName(partition: number): string {
  return `part-${String(partition).padStart(5, '0')}`;
}

export function parsePartitionFileName(name: string): number | null {
  const m = /^part-(\d{5})$/.exec(name);
  return m ? Number(m[1]) : null;
}

export class SegmentPartFile {
  readonly db: SqliteDatabase;
  /** The claim this writer writes under: appends commit only while the file's fence is still its attempt. */
  private fence: PartitionClaim | null = null;

  constructor(readonly file: string, create: boolean, private readonly encode: (value: never) => Buffer = encodeValue) {
    this.db = openDatabase(file, { create, schema: PART_SCHEMA, writeOnce: true, cacheKiB: PART_CACHE_KIB });
  }

  static exists(file: string): boolean {
    return fs.existsSync(file);
  }

  getMeta(key: string): string | undefined {
    const row = guard(this.file, () => this.db.prepare('SELECT value FROM meta WHERE key = ?').get(key)) as { value: string } | undefined;
    return row?.value;
  }

  /**
   * Writes under `claim` from now on: records its attempt as the file's fence (a newer attempt already
   * there means the claim was superseded), and every append and finish checks it in its transaction.
   */
  setFence(claim: PartitionClaim, segmentName: string, isCurrent: () => boolean): void {
    this.fence = claim;
    this.fenceOf = segmentName;
    this.claimIsCurrent = isCurrent;
    guard(this.file, () => this.db.transaction(() => {
      this.checkFence(true);
      this.setMeta('fence', String(claim.attempt));
    }).immediate());
  }

  private fenceOf = '';
  /** The queue's own answer: a takeover is refused from the moment it is claimed, before its writers open. */
  private claimIsCurrent: () => boolean = () => true;

  private checkFence(claiming = false): void {
    if (!this.fence) return;
    const stored = Number(this.getMeta('fence') ?? 0);
    if (claiming ? stored > this.fence.attempt : stored !== this.fence.attempt) throw leaseLost(this.fence, this.fenceOf);
    if (!this.claimIsCurrent()) throw leaseLost(this.fence, this.fenceOf);
  }

  /** Builds the url index and sets the finished flag. */
  finish(): void {
    guard(this.file, () => this.db.transaction(() => {
      this.checkFence();
      this.db.exec(URL_INDEX);
      this.setMeta('finished', '1');
    }).immediate());
  }

  setMeta(key: string, value: string): void {
    guard(this.file, () => this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value));
  }

  /** Each chunk is its own committed transaction: durable as soon as append() returns. */
  async append<V>(records: readonly Keyed<V>[]): Promise<void> {
    const insert = this.db.prepare('INSERT INTO records (url, value) VALUES (?, ?)');
    let i = 0;
    while (i < records.length) {
      if (i > 0) await yieldToEventLoop();
      const encoded: [string, Buffer][] = [];
      let bytes = 0;
      while (i < records.length && encoded.length < CHUNK_ROWS && bytes < CHUNK_BYTES) {
        const buf = this.encode(records[i].value as never);
        bytes += buf.length;
        encoded.push([records[i].url, buf]);
        i++;
      }
      guard(this.file, () => this.db.transaction(() => {
        this.checkFence();
        for (const [url, buf] of encoded) insert.run(url, buf);
      }).immediate());
    }
  }

  /** Records in insertion order, read in pages of at most `batchSize` rows and about CHUNK_BYTES. */
  async *read<V>(batchSize: number): AsyncGenerator<Keyed<V>> {
    for await (const r of this.readEncoded(batchSize)) yield { url: r.url, value: decodeValue<V>(r.value) };
  }

  /** read() without decoding: the stored value bytes. */
  async *readEncoded(batchSize: number): AsyncGenerator<Keyed<Buffer>> {
    const page = this.db.prepare('SELECT id, url, value FROM records WHERE id > ? ORDER BY id LIMIT ?');
    let after = 0;
    let limit = Math.min(batchSize, FIRST_READ_ROWS);
    for (;;) {
      const rows = guard(this.file, () => page.all(after, limit)) as { id: number; url: string; value: Buffer }[];
      if (rows.length === 0) return;
      after = rows[rows.length - 1].id;
      let bytes = 0;
      for (const row of rows) bytes += row.value.length;
      for (const row of rows) yield { url: row.url, value: row.value };
      if (rows.length < limit) return;
      // Pages of large values (content, parse_text) stay near CHUNK_BYTES instead of batchSize rows.
      limit = Math.max(1, Math.min(batchSize, Math.floor(CHUNK_BYTES / Math.max(1, bytes / rows.length))));
      await yieldToEventLoop();
    }
  }

  /** Records in the file (the fetcher's progress total). */
  count(): number {
    return (guard(this.file, () => this.db.prepare('SELECT count(*) AS n FROM records').get()) as { n: number }).n;
  }

  get<V>(url: string): V[] {
    const rows = guard(this.file, () => this.db.prepare('SELECT value FROM records WHERE url = ? ORDER BY id').all(url)) as { value: Buffer }[];
    return rows.map((r) => decodeValue<V>(r.value));
  }

  /**
   * Which of `urls` the file holds. A partition still being written has no url index yet (it is built
   * at finish); the first question builds it, so a resumed fetch pays one sorted build, not a scan per batch.
   */
  storedAmong(urls: readonly string[]): Set<string> {
    const out = new Set<string>();
    if (urls.length === 0) return out;
    guard(this.file, () => this.db.exec(URL_INDEX));
    const select = this.db.prepare('SELECT 1 FROM records WHERE url = ? LIMIT 1').pluck();
    guard(this.file, () => {
      for (const url of urls) if (select.get(url) !== undefined) out.add(url);
    });
    return out;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
