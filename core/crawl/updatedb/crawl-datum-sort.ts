/**
 * updatedb's staging of segment datums: an ExternalSort by URL whose rows are the CrawlDatum fields
 * (metadata as JSON, the signature as a BLOB). Read back in URL order, then insertion order.
 */
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { Metadata } from '../../model/metadata.js';
import { ExternalSort, type SortRow } from '../../storage/external-sort.js';

/** A staged record with this status means: ignore the CrawlDb's datum for the URL (renamed or filtered). */
export const DROP_OLD = 0;

export class CrawlDatumSort {
  private readonly sort: ExternalSort;

  constructor(opts: { runSize?: number } = {}) {
    this.sort = new ExternalSort({ columns: 8, runSize: opts.runSize });
  }

  get size(): number {
    return this.sort.size;
  }

  add(records: readonly { url: string; datum: CrawlDatum }[]): void {
    for (const { url, datum: d } of records) {
      const meta = hasKeys(d.metaData) ? JSON.stringify(d.metaData) : null;
      const sig = d.signature ? Buffer.from(d.signature.buffer, d.signature.byteOffset, d.signature.byteLength) : null;
      this.sort.add([url, d.status, d.fetchTime, d.retries, d.fetchInterval, Number.isFinite(d.score) ? d.score : 0, d.modifiedTime, sig, meta]);
    }
  }

  /** Every staged record in URL order (the stores' order), then insertion order. */
  *records(): Generator<{ url: string; datum: CrawlDatum }> {
    for (const row of this.sort.sorted()) yield { url: row[0], datum: toDatum(row) };
  }

  close(): void {
    this.sort.close();
  }
}

function hasKeys(md: Metadata | undefined): boolean {
  if (!md) return false;
  for (const _ in md) return true;
  return false;
}

function toDatum(r: SortRow): CrawlDatum {
  const sig = r[7] as Uint8Array | null;
  return {
    status: r[1] as number,
    fetchTime: r[2] as number,
    retries: r[3] as number,
    fetchInterval: r[4] as number,
    score: r[5] as number,
    modifiedTime: r[6] as number,
    signature: sig ? new Uint8Array(sig.buffer, sig.byteOffset, sig.byteLength) : null,
    metaData: r[8] ? (JSON.parse(r[8] as string) as Metadata) : {},
  };
}
