/** The HostDb on PostgreSQL: nutch_hostdb, HostDatum fields as columns (the key column, url, holds the host name). */
import type { HostDatum } from '../../model/host-datum.js';
import type { HostDb } from '../interfaces.js';
import { HOST_COLUMNS, hostDbView, hostToRow, rowToHost } from '../host-db-view.js';
import type { PgDatabase } from './pg-database.js';
import { PgKeyedStore, sessionView, type PgRowCodec } from './pg-keyed-store.js';

const hostCodec: PgRowCodec<HostDatum> = {
  kind: 'hostdb',
  columns: HOST_COLUMNS,
  types: ['float8', 'float8', 'text', 'int4', 'int4', 'int4', 'int4', 'int4', 'int4', 'int4', 'int4', 'text'],
  toRow: (d) => hostToRow(d),
  fromRow: (row) => rowToHost(row.slice(1)),
};

export function openPgHostDb(db: PgDatabase, path: string, name: string): HostDb {
  const store = new PgKeyedStore(db, name, hostCodec, 'hostdb');
  return hostDbView(path, store, async (opts) => sessionView(await store.beginSession(opts)));
}
