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

/** A row in DATUM_COLUMNS order (raw mode). */
export function rowToDatum(row: unknown[]): CrawlDatum {
  const signature = row[6] as Buffer | null;
  const meta = row[8] as string | null;
  return {
    status: row[1] as number,
    fetchTime: row[2] as number,
    retries: row[3] as number,
    fetchInterval: row[4] as number,
    score: row[5] as number,
    signature: signature ? new Uint8Array(signature.buffer, signature.byteOffset, signature.byteLength) : null,
    modifiedTime: row[7] as number,
    metaData: meta ? (JSON.parse(meta) as Metadata) : {},
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
