/** The CrawlDb on PostgreSQL: nutch_crawldb, CrawlDatum fields as columns (queryable with SQL), metadata as JSON text. */
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { Metadata } from '../../model/metadata.js';
import type { CrawlDb, CrawlDbUpdate, Keyed, ScanOptions } from '../interfaces.js';
import type { PgDatabase } from './pg-database.js';
import { PgKeyedStore, sessionView, type PgRowCodec } from './pg-keyed-store.js';

const datumCodec: PgRowCodec<CrawlDatum> = {
  kind: 'crawldb',
  columns: ['status', 'fetch_time', 'retries', 'fetch_interval', 'score', 'signature', 'modified_time', 'meta'],
  types: ['int2', 'float8', 'int4', 'float8', 'float8', 'bytea', 'float8', 'text'],
  toRow: (d) => [
    d.status,
    d.fetchTime,
    d.retries,
    d.fetchInterval,
    Number.isFinite(d.score) ? d.score : 0,
    d.signature,
    d.modifiedTime,
    d.metaData && Object.keys(d.metaData).length > 0 ? JSON.stringify(d.metaData) : null,
  ],
  fromRow: (row) => {
    const sig = row[6] as Buffer | null;
    const meta = row[8] as string | null;
    return {
      status: row[1] as number,
      fetchTime: row[2] as number,
      retries: row[3] as number,
      fetchInterval: row[4] as number,
      score: row[5] as number,
      signature: sig ? new Uint8Array(sig.buffer, sig.byteOffset, sig.byteLength) : null,
      modifiedTime: row[7] as number,
      metaData: meta ? (JSON.parse(meta) as Metadata) : {},
    };
  },
};

export class PgCrawlDb implements CrawlDb {
  private readonly store: PgKeyedStore<CrawlDatum>;

  constructor(db: PgDatabase, readonly path: string, name: string) {
    this.store = new PgKeyedStore(db, name, datumCodec, 'crawldb');
  }

  exists(): Promise<boolean> { return this.store.exists(); }
  get(url: string): Promise<CrawlDatum | null> { return this.store.get(url); }
  getMany(urls: readonly string[]): Promise<Map<string, CrawlDatum>> { return this.store.getMany(urls); }
  scan(opts?: ScanOptions): AsyncIterable<Keyed<CrawlDatum>> { return this.store.scan(opts); }
  count(): Promise<number> { return this.store.count(); }
  close(): Promise<void> { return this.store.close(); }

  async beginUpdate(opts?: { force?: boolean }): Promise<CrawlDbUpdate> {
    return sessionView(await this.store.beginSession(opts));
  }
}
