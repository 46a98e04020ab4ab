/**
 * IndexingFilter — combine rule: SEQUENTIAL CHAIN with short-circuit on null. Each filter receives
 * the document the previous one returned; null drops the document from the index.
 * Order: `indexingfilter.order` when set (only listed ids, as Nutch), else every active one by id.
 */
import type { CrawlDatum } from '../model/crawl-datum.js';
import type { Inlinks } from '../model/inlinks.js';
import type { Parse } from '../model/parse.js';
import type { NutchDocument } from '../model/nutch-document.js';

export interface IndexingContext {
  url: string;
  parse: Parse;
  dbDatum: CrawlDatum | null;
  fetchDatum: CrawlDatum | null;
  inlinks: Inlinks | null;
}

export interface IndexingFilter {
  filter(doc: NutchDocument, ctx: IndexingContext): NutchDocument | null | Promise<NutchDocument | null>;
}

export class IndexingFilters {
  constructor(private readonly steps: readonly { extensionId: string; filter: IndexingFilter }[]) {}

  get chain(): readonly string[] {
    return this.steps.map((s) => s.extensionId);
  }

  async filter(doc: NutchDocument, ctx: IndexingContext): Promise<NutchDocument | null> {
    let current: NutchDocument | null = doc;
    for (const s of this.steps) {
      current = await s.filter.filter(current, ctx);
      if (current === null || current === undefined) return null;
    }
    return current;
  }
}
