/**
 * HtmlParseFilter — combine rule: SEQUENTIAL CHAIN. Each filter receives the parse result the
 * previous one returned, with the content and the DOM (domhandler Document); runs in parse workers.
 * Order: `htmlparsefilter.order` when set (only listed ids), else every active one by id.
 */
import type { Content } from '../model/content.js';
import type { ParseResult } from '../model/parse.js';

/** Robots meta directives found in the page, as Nutch's HTMLMetaTags. */
export interface HTMLMetaTags {
  noIndex: boolean;
  noFollow: boolean;
  noCache: boolean;
  refresh: boolean;
  refreshTime: number;
  refreshHref: string | null;
  baseHref: string | null;
  generalTags: Record<string, string[]>;
  httpEquivTags: Record<string, string[]>;
}

export interface HtmlParseFilter {
  /** `doc` is the domhandler Document of the page. */
  filter(content: Content, parseResult: ParseResult, metaTags: HTMLMetaTags, doc: unknown): ParseResult | Promise<ParseResult>;
}

export class HtmlParseFilters {
  constructor(
    private readonly steps: readonly { extensionId: string; filter: HtmlParseFilter }[],
    /** Re-throws a filter's error tagged with plugin, point and URL (ExtensionChains passes its tagger). */
    private readonly onError: (extensionId: string, url: string, err: unknown) => never = (_id, _url, err) => { throw err; },
  ) {}

  get chain(): readonly string[] {
    return this.steps.map((s) => s.extensionId);
  }

  async filter(content: Content, parseResult: ParseResult, metaTags: HTMLMetaTags, doc: unknown): Promise<ParseResult> {
    let result = parseResult;
    for (const s of this.steps) {
      try {
        result = await s.filter.filter(content, result, metaTags, doc);
      } catch (err) {
        this.onError(s.extensionId, content.url, err);
      }
    }
    return result;
  }
}
