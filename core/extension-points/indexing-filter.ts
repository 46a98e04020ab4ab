/**
 * IndexingFilter — combine rule: SEQUENTIAL CHAIN with short-circuit on null. Each filter receives
 * the document the previous one returned; null drops the document from the index. A filter that
 * throws fails the document with the error tagged (NUTCH_EXTENSION_FAILED: plugin, point, URL).
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
  constructor(
    private readonly steps: readonly { extensionId: string; filter: IndexingFilter }[],
    /** Re-throws a filter's error tagged with plugin, point and URL (ExtensionChains passes its tagger). */
    private readonly onError: (extensionId: string, url: string, err: unknown) => never = (_id, _url, err) => { throw err; },
  ) {}

  get chain(): readonly string[] {
    return this.steps.map((s) => s.extensionId);
  }

  async filter(doc: NutchDocument, ctx: IndexingContext): Promise<NutchDocument | null> {
    let current: NutchDocument | null = doc;
    for (const s of this.steps) {
      try {
        current = await s.filter.filter(current, ctx);
      } catch (err) {
        this.onError(s.extensionId, ctx.url, err);
      }
      if (current === null || current === undefined) return null;
    }
    return current;
  }
}
