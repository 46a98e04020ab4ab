/**
 * A disk-backed sorter for updatedb: segment datums are staged into an anonymous temporary SQLite
 * database (deleted by SQLite when closed or when the process dies) keyed by (url, seq), then read
 * back grouped by URL in URL order. Inserts and reads are chunked, so neither the memory (bounded by
 * the page cache) nor any single synchronous step grows with the segment size. This is a scratch
 * sort, not a store: the CrawlDb itself is only reached through the storage interfaces.
 */
import Database from 'better-sqlite3';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { Metadata } from '../../model/metadata.js';

/** A staged record with this status means: ignore the CrawlDb's datum for the URL (renamed or filtered). */
export const DROP_OLD = 0;

const SCHEMA = `CREATE TABLE staged (
  url TEXT NOT NULL, seq INTEGER NOT NULL, status INTEGER NOT NULL, fetch_time INTEGER NOT NULL,
  retries INTEGER NOT NULL, fetch_interval REAL NOT NULL, score REAL NOT NULL, modified_time INTEGER NOT NULL,
  signature BLOB, meta TEXT, PRIMARY KEY (url, seq)) WITHOUT ROWID`;

type Row = [string, number, number, number, number, number, number, number, Buffer | null, string | null];

export class StagingTable {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly insertMany: (rows: Row[]) => void;
  private seq = 0;

  constructor(cacheMb = 64) {
    this.db = new Database('');
    this.db.pragma('journal_mode = OFF');
    this.db.pragma('synchronous = OFF');
    this.db.pragma(`cache_size = -${Math.max(2, cacheMb) * 1024}`);
    this.db.exec(SCHEMA);
    this.insert = this.db.prepare('INSERT INTO staged VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    this.insertMany = this.db.transaction((rows: Row[]) => {
      for (const r of rows) this.insert.run(r);
    });
  }

  get size(): number {
    return this.seq;
  }

  /** Stages records in one transaction (callers pass a bounded batch). */
  add(records: readonly { url: string; datum: CrawlDatum }[]): void {
    const rows: Row[] = new Array(records.length);
    for (let i = 0; i < records.length; i++) {
      const { url, datum: d } = records[i]!;
      const meta = hasKeys(d.metaData) ? JSON.stringify(d.metaData) : null;
      const sig = d.signature ? Buffer.from(d.signature.buffer, d.signature.byteOffset, d.signature.byteLength) : null;
      rows[i] = [url, this.seq++, d.status, d.fetchTime, d.retries, d.fetchInterval, Number.isFinite(d.score) ? d.score : 0, d.modifiedTime, sig, meta];
    }
    this.insertMany(rows);
  }

  /**
   * Every staged record in URL order (SQLite BINARY order), then insertion order. Rows come one at a
   * time from the primary-key index, so a URL with a million inlinks never sits in memory at once.
   */
  *records(): Generator<{ url: string; datum: CrawlDatum }> {
    const it = this.db.prepare('SELECT * FROM staged ORDER BY url, seq').raw(true).iterate() as IterableIterator<Row>;
    for (const row of it) yield { url: row[0], datum: toDatum(row) };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function hasKeys(md: Metadata | undefined): boolean {
  if (!md) return false;
  for (const _ in md) return true;
  return false;
}

function toDatum(r: Row): CrawlDatum {
  const sig = r[8];
  return {
    status: r[2],
    fetchTime: r[3],
    retries: r[4],
    fetchInterval: r[5],
    score: r[6],
    modifiedTime: r[7],
    signature: sig ? new Uint8Array(sig.buffer, sig.byteOffset, sig.byteLength) : null,
    metaData: r[9] ? (JSON.parse(r[9]) as Metadata) : {},
  };
}
