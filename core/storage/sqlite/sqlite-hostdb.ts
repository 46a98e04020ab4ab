/**
 * The embedded HostDb: `<hostdb>/current/part-00000`, one row per host with HostDatum fields as
 * columns (the key column is named url like the other keyed stores; it holds the host name).
 */
import type { HostDatum } from '../../model/host-datum.js';
import type { HostDb, Keyed, ScanOptions } from '../interfaces.js';
import { HOST_COLUMNS, hostDbView, hostToRow, rowToHost, type KeyedUpdate } from '../host-db-view.js';
import { KeyedDb, type KeyedDbOptions } from './keyed-db.js';
import type { RowCodec } from './keyed-table.js';

const HOSTDB_SCHEMA = `
CREATE TABLE IF NOT EXISTS hostdb (
  url TEXT PRIMARY KEY NOT NULL,
  score REAL NOT NULL,
  last_check INTEGER NOT NULL,
  homepage TEXT NOT NULL,
  dns_failures INTEGER NOT NULL,
  connection_failures INTEGER NOT NULL,
  unfetched INTEGER NOT NULL,
  fetched INTEGER NOT NULL,
  not_modified INTEGER NOT NULL,
  redir_temp INTEGER NOT NULL,
  redir_perm INTEGER NOT NULL,
  gone INTEGER NOT NULL,
  meta TEXT
) WITHOUT ROWID;
`;

const hostCodec: RowCodec<HostDatum> = {
  table: 'hostdb',
  columns: ['url', ...HOST_COLUMNS].join(', '),
  toParams: (host, value) => [host, ...hostToRow(value)],
  fromRow: (row) => rowToHost(row.slice(1)),
};

export function openSqliteHostDb(path: string, opts: KeyedDbOptions): HostDb {
  const db = new KeyedDb<HostDatum>(path, hostCodec, HOSTDB_SCHEMA, opts);
  const store = {
    get: (host: string) => db.get(host),
    getMany: (hosts: readonly string[]) => db.getMany(hosts),
    scan: (o?: ScanOptions) => db.scan(o),
    count: () => db.count(),
    exists: async () => db.exists(),
    close: () => db.close(),
  };
  return hostDbView(path, store, async (o) => {
    const session = await db.beginSession(o);
    const update: KeyedUpdate<HostDatum> = {
      put: async (records: readonly Keyed<HostDatum>[]) => session.check().put(records),
      delete: async (hosts: readonly string[]) => session.check().delete(hosts),
      get: async (host: string) => session.check().get(host),
      getMany: async (hosts: readonly string[]) => session.check().getMany(hosts),
      scan: (s?: ScanOptions) => session.check().scan(s),
      commit: () => session.commit(),
      abort: () => session.abort(),
    };
    return update;
  });
}
