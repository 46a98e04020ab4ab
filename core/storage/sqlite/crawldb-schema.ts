/**
 * The CrawlDb table: one row per URL, CrawlDatum fields as columns (so the file is inspectable with
 * the sqlite3 shell), metadata as JSON (NULL when empty), the signature as a BLOB. WITHOUT ROWID keyed
 * on url gives URL-ordered scans by keyset pagination.
 */
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { Metadata } from '../../model/metadata.js';

export const CRAWLDB_SCHEMA = `
CREATE TABLE IF NOT EXISTS crawldb (
  url TEXT PRIMARY KEY NOT NULL,
  status INTEGER NOT NULL,
  fetch_time INTEGER NOT NULL,
  retries INTEGER NOT NULL,
  fetch_interval INTEGER NOT NULL,
  score REAL NOT NULL,
  signature BLOB,
  modified_time INTEGER NOT NULL,
  meta TEXT
) WITHOUT ROWID;
`;

export const DATUM_COLUMNS = 'url, status, fetch_time, retries, fetch_interval, score, signature, modified_time, meta';

export interface DatumRow {
  url: string;
  status: number;
  fetch_time: number;
  retries: number;
  fetch_interval: number;
  score: number;
  signature: Buffer | null;
  modified_time: number;
  meta: string | null;
}

export function rowToDatum(row: DatumRow): CrawlDatum {
  return {
    status: row.status,
    fetchTime: row.fetch_time,
    retries: row.retries,
    fetchInterval: row.fetch_interval,
    score: row.score,
    signature: row.signature ? new Uint8Array(row.signature.buffer, row.signature.byteOffset, row.signature.byteLength) : null,
    modifiedTime: row.modified_time,
    metaData: row.meta ? (JSON.parse(row.meta) as Metadata) : {},
  };
}

/** Positional parameters in DATUM_COLUMNS order. */
export function datumParams(url: string, d: CrawlDatum): unknown[] {
  const meta = d.metaData && Object.keys(d.metaData).length > 0 ? JSON.stringify(d.metaData) : null;
  return [
    url,
    d.status,
    d.fetchTime,
    d.retries,
    d.fetchInterval,
    Number.isFinite(d.score) ? d.score : 0,
    d.signature ? Buffer.from(d.signature.buffer, d.signature.byteOffset, d.signature.byteLength) : null,
    d.modifiedTime,
    meta,
  ];
}
