/**
 * The datums of one URL, collected as Nutch's CrawlDbReducer loop classifies them before it
 * decides anything: the latest CrawlDb datum and the latest fetch datum (by fetch time), the
 * signature and parse metadata from crawl_parse, and the db.update.max.inlinks highest-scoring
 * linked datums (Nutch's InlinkPriorityQueue), so memory is bounded by that limit.
 */
import { CrawlStatus, hasDbStatus, hasFetchStatus, type CrawlDatum } from '../../model/crawl-datum.js';
import type { Metadata } from '../../model/metadata.js';
import { WorstFirstHeap } from '../worst-first-heap.js';
import type { CrawlDbReducerInput } from './crawl-db-reducer.js';

type LinkedEntry = { datum: CrawlDatum; seq: number };

/** a ranks below b: lower score, or the same score inserted later. */
function ranksBelow(a: LinkedEntry, b: LinkedEntry): boolean {
  return a.datum.score < b.datum.score || (a.datum.score === b.datum.score && a.seq > b.seq);
}

export class CrawlDbValues {
  old: CrawlDatum | null = null;
  fetch: CrawlDatum | null = null;
  signature: Uint8Array | null = null;
  parseMeta: Metadata | null = null;
  /** Linked datums kept so far, the worst on top. */
  private readonly linked = new WorstFirstHeap<LinkedEntry>(ranksBelow);
  private seq = 0;
  /** Datums of a status the reducer does not take (updatedb logs how many). */
  unknown = 0;

  constructor(private readonly maxLinks: number) {}

  add(datum: CrawlDatum): void {
    if (hasDbStatus(datum)) {
      // always take the latest version
      if (!this.old || this.old.fetchTime < datum.fetchTime) this.old = datum;
      return;
    }
    if (hasFetchStatus(datum)) {
      if (!this.fetch || this.fetch.fetchTime < datum.fetchTime) this.fetch = datum;
      return;
    }
    switch (datum.status) {
      case CrawlStatus.STATUS_LINKED: this.addLinked(datum); break;
      case CrawlStatus.STATUS_SIGNATURE: this.signature = datum.signature; break;
      case CrawlStatus.STATUS_PARSE_META: this.parseMeta = datum.metaData; break;
      default: this.unknown++;
    }
  }

  private addLinked(datum: CrawlDatum): void {
    if (this.maxLinks <= 0) return;
    const entry = { datum, seq: this.seq++ };
    if (this.linked.size < this.maxLinks) this.linked.push(entry);
    else if (ranksBelow(this.linked.peek()!, entry)) this.linked.replaceTop(entry);
  }

  /** The reducer's input: linked datums highest score first, ties in arrival order. */
  input(): CrawlDbReducerInput {
    const linked = [...this.linked.items].sort((a, b) => (b.datum.score - a.datum.score) || (a.seq - b.seq)).map((e) => e.datum);
    return { old: this.old, fetch: this.fetch, linked, signature: this.signature, parseMeta: this.parseMeta };
  }
}
