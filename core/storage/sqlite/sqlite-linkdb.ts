/** The embedded LinkDb: `<linkdb>/current/part-00000`, the Inlinks of each URL (V8-serialised). */
import type { Inlinks } from '../../model/inlinks.js';
import type { Keyed, LinkDb, LinkDbUpdate, ScanOptions } from '../interfaces.js';
import { KeyedDb, type KeyedDbOptions, type KeyedSession } from './keyed-db.js';
import type { RowCodec } from './keyed-table.js';
import { decodeValue, encodeValue } from '../value-codec.js';

const LINKDB_SCHEMA = 'CREATE TABLE IF NOT EXISTS linkdb (url TEXT PRIMARY KEY NOT NULL, inlinks BLOB NOT NULL) WITHOUT ROWID;';

const inlinksCodec: RowCodec<Inlinks> = {
  table: 'linkdb',
  columns: 'url, inlinks',
  toParams: (url, value) => [url, encodeValue(value)],
  fromRow: (row) => decodeValue<Inlinks>(row[1] as Buffer),
};

export class SqliteLinkDb implements LinkDb {
  private readonly db: KeyedDb<Inlinks>;

  constructor(readonly path: string, opts: KeyedDbOptions) {
    this.db = new KeyedDb(path, inlinksCodec, LINKDB_SCHEMA, opts);
  }

  async exists(): Promise<boolean> {
    return this.db.exists();
  }

  get(url: string): Promise<Inlinks | null> {
    return this.db.get(url);
  }

  async getMany(urls: readonly string[]): Promise<Map<string, Inlinks>> {
    return this.db.getMany(urls);
  }

  scan(opts?: ScanOptions): AsyncIterable<Keyed<Inlinks>> {
    return this.db.scan(opts);
  }

  count(): Promise<number> {
    return this.db.count();
  }

  async beginUpdate(opts?: { force?: boolean }): Promise<LinkDbUpdate> {
    return new SqliteLinkDbUpdate(await this.db.beginSession(opts));
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

class SqliteLinkDbUpdate implements LinkDbUpdate {
  constructor(private readonly session: KeyedSession<Inlinks>) {}

  async put(records: readonly Keyed<Inlinks>[]): Promise<void> {
    return this.session.check().put(records);
  }

  async get(url: string): Promise<Inlinks | null> {
    return this.session.check().get(url);
  }

  async getMany(urls: readonly string[]): Promise<Map<string, Inlinks>> {
    return this.session.check().getMany(urls);
  }

  scan(opts?: ScanOptions): AsyncIterable<Keyed<Inlinks>> {
    return this.session.check().scan(opts);
  }

  async delete(urls: readonly string[]): Promise<void> {
    return this.session.check().delete(urls);
  }

  async commit(): Promise<void> {
    return this.session.commit();
  }

  async abort(): Promise<void> {
    return this.session.abort();
  }
}
