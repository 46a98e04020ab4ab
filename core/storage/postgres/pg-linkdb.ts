/** The LinkDb on PostgreSQL: nutch_linkdb, the Inlinks of each URL in the shared value codec. */
import type { Inlinks } from '../../model/inlinks.js';
import type { Keyed, LinkDb, LinkDbUpdate, ScanOptions } from '../interfaces.js';
import { decodeValue, encodeValue } from '../value-codec.js';
import type { PgDatabase } from './pg-database.js';
import { PgKeyedStore, sessionView, type PgRowCodec } from './pg-keyed-store.js';

const inlinksCodec: PgRowCodec<Inlinks> = {
  kind: 'linkdb',
  columns: ['inlinks'],
  types: ['bytea'],
  toRow: (v) => [encodeValue(v)],
  fromRow: (row) => decodeValue<Inlinks>(row[1] as Buffer),
};

export class PgLinkDb implements LinkDb {
  private readonly store: PgKeyedStore<Inlinks>;

  constructor(db: PgDatabase, readonly path: string, name: string) {
    this.store = new PgKeyedStore(db, name, inlinksCodec, 'linkdb');
  }

  exists(): Promise<boolean> { return this.store.exists(); }
  get(url: string): Promise<Inlinks | null> { return this.store.get(url); }
  getMany(urls: readonly string[]): Promise<Map<string, Inlinks>> { return this.store.getMany(urls); }
  scan(opts?: ScanOptions): AsyncIterable<Keyed<Inlinks>> { return this.store.scan(opts); }
  count(): Promise<number> { return this.store.count(); }
  close(): Promise<void> { return this.store.close(); }

  async beginUpdate(opts?: { force?: boolean }): Promise<LinkDbUpdate> {
    return sessionView(await this.store.beginSession(opts));
  }
}
