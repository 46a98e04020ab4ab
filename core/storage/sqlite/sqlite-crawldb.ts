/** The embedded CrawlDb: `<crawldb>/current/part-00000`, one CrawlDatum row per URL. */
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { CrawlDb, CrawlDbUpdate, Keyed, ScanOptions } from '../interfaces.js';
import { CRAWLDB_SCHEMA, DATUM_COLUMNS, datumParams, rowToDatum } from './crawldb-schema.js';
import { KeyedDb, type KeyedDbOptions, type KeyedSession } from './keyed-db.js';
import type { RowCodec } from './keyed-table.js';

const datumCodec: RowCodec<CrawlDatum> = {
  table: 'crawldb',
  columns: DATUM_COLUMNS,
  toParams: datumParams,
  fromRow: rowToDatum,
};

export class SqliteCrawlDb implements CrawlDb {
  private readonly db: KeyedDb<CrawlDatum>;

  constructor(readonly path: string, opts: KeyedDbOptions) {
    this.db = new KeyedDb(path, datumCodec, CRAWLDB_SCHEMA, opts);
  }

  async exists(): Promise<boolean> {
    return this.db.exists();
  }

  get(url: string): Promise<CrawlDatum | null> {
    return this.db.get(url);
  }

  async getMany(urls: readonly string[]): Promise<Map<string, CrawlDatum>> {
    return this.db.getMany(urls);
  }

  scan(opts?: ScanOptions): AsyncIterable<Keyed<CrawlDatum>> {
    return this.db.scan(opts);
  }

  count(): Promise<number> {
    return this.db.count();
  }

  async beginUpdate(opts?: { force?: boolean }): Promise<CrawlDbUpdate> {
    return new SqliteCrawlDbUpdate(await this.db.beginSession(opts));
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

class SqliteCrawlDbUpdate implements CrawlDbUpdate {
  constructor(private readonly session: KeyedSession<CrawlDatum>) {}

  async put(records: readonly Keyed<CrawlDatum>[]): Promise<void> {
    return this.session.check().put(records);
  }

  async delete(urls: readonly string[]): Promise<void> {
    return this.session.check().delete(urls);
  }

  async get(url: string): Promise<CrawlDatum | null> {
    return this.session.check().get(url);
  }

  async getMany(urls: readonly string[]): Promise<Map<string, CrawlDatum>> {
    return this.session.check().getMany(urls);
  }

  async count(): Promise<number> {
    return this.session.check().count();
  }

  scan(opts?: ScanOptions): AsyncIterable<Keyed<CrawlDatum>> {
    return this.session.check().scan(opts);
  }

  async commit(): Promise<void> {
    return this.session.commit();
  }

  async abort(): Promise<void> {
    return this.session.abort();
  }
}
