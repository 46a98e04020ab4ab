/**
 * The HostDb on top of an engine's key-ordered store: every engine keeps hosts in the same
 * key column as URLs (code-point order, keyset paging, sessions, writer lock), and this view turns
 * `{ url, value }` rows into `{ host, datum }` records. Also the column layout shared by the engines,
 * so the HostDb stays inspectable with SQL (`SELECT url, fetched, dns_failures FROM hostdb`).
 */
import type { HostDatum, HostMetadata } from '../model/host-datum.js';
import type { HostDb, HostDbUpdate, HostRecord, HostScanOptions, Keyed, ScanOptions } from './interfaces.js';

/** Value columns after the key column, in this order in both engines. */
export const HOST_COLUMNS = ['score', 'last_check', 'homepage', 'dns_failures', 'connection_failures', 'unfetched', 'fetched', 'not_modified', 'redir_temp', 'redir_perm', 'gone', 'meta'] as const;

export type HostRow = [number, number, string, number, number, number, number, number, number, number, number, string | null];

export function hostToRow(d: HostDatum): HostRow {
  const meta = Object.keys(d.metaData).length > 0 ? JSON.stringify(d.metaData) : null;
  return [Number.isFinite(d.score) ? d.score : 0, d.lastCheck, d.homepageUrl, d.dnsFailures, d.connectionFailures,
    d.unfetched, d.fetched, d.notModified, d.redirTemp, d.redirPerm, d.gone, meta];
}

export function rowToHost(row: readonly unknown[]): HostDatum {
  const meta = row[11] as string | null;
  return {
    score: Number(row[0]),
    lastCheck: Number(row[1]),
    homepageUrl: String(row[2] ?? ''),
    dnsFailures: Number(row[3]),
    connectionFailures: Number(row[4]),
    unfetched: Number(row[5]),
    fetched: Number(row[6]),
    notModified: Number(row[7]),
    redirTemp: Number(row[8]),
    redirPerm: Number(row[9]),
    gone: Number(row[10]),
    metaData: meta ? (JSON.parse(meta) as HostMetadata) : {},
  };
}

interface KeyedReads<V> {
  get(url: string): Promise<V | null>;
  getMany(urls: readonly string[]): Promise<Map<string, V>>;
  scan(opts?: ScanOptions): AsyncIterable<Keyed<V>>;
}

export interface KeyedStore<V> extends KeyedReads<V> {
  count(): Promise<number>;
  exists(): Promise<boolean>;
  close(): Promise<void>;
}

export interface KeyedUpdate<V> extends KeyedReads<V> {
  put(records: readonly Keyed<V>[]): Promise<void>;
  delete(urls: readonly string[]): Promise<void>;
  commit(): Promise<void>;
  abort(): Promise<void>;
}

async function* hosts(rows: AsyncIterable<Keyed<HostDatum>>): AsyncGenerator<HostRecord> {
  for await (const r of rows) yield { host: r.url, datum: r.value };
}

function scanOpts(opts?: HostScanOptions): ScanOptions | undefined {
  return opts?.batchSize === undefined ? undefined : { batchSize: opts.batchSize };
}

export function hostDbView(path: string, store: KeyedStore<HostDatum>, begin: (opts?: { force?: boolean }) => Promise<KeyedUpdate<HostDatum>>): HostDb {
  return {
    path,
    get: (host) => store.get(host),
    getMany: (list) => store.getMany(list),
    scan: (opts) => hosts(store.scan(scanOpts(opts))),
    count: () => store.count(),
    exists: () => store.exists(),
    close: () => store.close(),
    async beginUpdate(opts) {
      return hostUpdateView(await begin(opts));
    },
  };
}

function hostUpdateView(up: KeyedUpdate<HostDatum>): HostDbUpdate {
  return {
    put: (records) => up.put(records.map((r) => ({ url: r.host, value: r.datum }))),
    delete: (list) => up.delete(list),
    get: (host) => up.get(host),
    getMany: (list) => up.getMany(list),
    scan: (opts) => hosts(up.scan(scanOpts(opts))),
    commit: () => up.commit(),
    abort: () => up.abort(),
  };
}
