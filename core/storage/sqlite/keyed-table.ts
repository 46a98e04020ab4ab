/**
 * URL-keyed table access shared by the CrawlDb and the LinkDb: prepared statements over one
 * connection, keyset-paginated scans (memory bounded by the page size, a loop turn between pages)
 * and chunked writes (no long synchronous block).
 */
import type { Keyed, ScanOptions } from '../interfaces.js';
import { guard, type SqliteDatabase } from './open-database.js';
import { WRITE_CHUNK, inChunks, yieldToEventLoop } from '../yield.js';

export interface RowCodec<V> {
  table: string;
  /** Column list, url first. */
  columns: string;
  toParams(url: string, value: V): unknown[];
  /** A row in column order (statements run in raw mode: arrays are cheaper than objects). */
  fromRow(row: unknown[]): V;
}

/** Rows counted per synchronous step of count(). */
const COUNT_STEP = 50_000;

export class KeyedTable<V> {
  private readonly getStmt;
  private readonly firstPage;
  private readonly fromPage;
  private readonly nextPage;
  private readonly putStmt;
  private readonly deleteStmt;
  private readonly countAfter;
  private readonly keyAt;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly file: string,
    private readonly codec: RowCodec<V>,
    private readonly defaultBatch: number,
  ) {
    const { table, columns } = codec;
    const marks = columns.split(',').map(() => '?').join(', ');
    this.getStmt = db.prepare(`SELECT ${columns} FROM ${table} WHERE url = ?`).raw(true);
    this.firstPage = db.prepare(`SELECT ${columns} FROM ${table} ORDER BY url LIMIT ?`).raw(true);
    this.fromPage = db.prepare(`SELECT ${columns} FROM ${table} WHERE url >= ? ORDER BY url LIMIT ?`).raw(true);
    this.nextPage = db.prepare(`SELECT ${columns} FROM ${table} WHERE url > ? ORDER BY url LIMIT ?`).raw(true);
    this.putStmt = db.prepare(`INSERT OR REPLACE INTO ${table} (${columns}) VALUES (${marks})`);
    this.deleteStmt = db.prepare(`DELETE FROM ${table} WHERE url = ?`);
    this.countAfter = db.prepare(`SELECT count(*) AS n FROM (SELECT url FROM ${table} WHERE url > ? ORDER BY url LIMIT ${COUNT_STEP})`);
    this.keyAt = db.prepare(`SELECT url FROM ${table} WHERE url > ? ORDER BY url LIMIT 1 OFFSET ${COUNT_STEP - 1}`);
  }

  get(url: string): V | null {
    const row = guard(this.file, () => this.getStmt.get(url)) as unknown[] | undefined;
    return row ? this.codec.fromRow(row) : null;
  }

  async getMany(urls: readonly string[]): Promise<Map<string, V>> {
    const out = new Map<string, V>();
    await inChunks(urls, WRITE_CHUNK * 2, (slice) => {
      for (const url of slice) {
        const v = this.get(url);
        if (v !== null) out.set(url, v);
      }
    });
    return out;
  }

  async *scan(opts: ScanOptions = {}): AsyncGenerator<Keyed<V>> {
    const size = Math.max(1, opts.batchSize ?? this.defaultBatch);
    let rows = guard(this.file, () =>
      (opts.fromUrl !== undefined ? this.fromPage.all(opts.fromUrl, size) : this.firstPage.all(size)) as unknown[][]);
    while (rows.length > 0) {
      const page = rows.map((row) => ({ url: row[0] as string, value: this.codec.fromRow(row) }));
      const last = page[page.length - 1].url;
      for (const rec of page) yield rec;
      if (rows.length < size) return;
      await yieldToEventLoop();
      rows = guard(this.file, () => this.nextPage.all(last, size) as unknown[][]);
    }
  }

  /** Writes inside whatever transaction the caller holds; chunked so the event loop breathes. */
  async put(records: readonly Keyed<V>[]): Promise<void> {
    await inChunks(records, WRITE_CHUNK, (slice) => guard(this.file, () => {
      for (const r of slice) this.putStmt.run(...this.codec.toParams(r.url, r.value));
    }));
  }

  async delete(urls: readonly string[]): Promise<void> {
    await inChunks(urls, WRITE_CHUNK, (slice) => guard(this.file, () => {
      for (const url of slice) this.deleteStmt.run(url);
    }));
  }

  /** Counts in steps of COUNT_STEP keys so a million-row table never blocks the loop for long. */
  async count(): Promise<number> {
    let total = 0;
    let after = '';
    for (;;) {
      const n = (guard(this.file, () => this.countAfter.get(after)) as { n: number }).n;
      total += n;
      if (n < COUNT_STEP) return total;
      after = (this.keyAt.get(after) as { url: string }).url;
      await yieldToEventLoop();
    }
  }
}
