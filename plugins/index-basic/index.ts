/**
 * index-basic, as Nutch's BasicIndexingFilter: host, url (the representative URL of a redirect
 * chain when the CrawlDb knows one, with the original in `orig`), content (cut at
 * indexer.max.content.length), title (cut at indexer.max.title.length, only when not empty),
 * cache (the parse's caching.forbidden policy unless "none") and tstamp (the fetch time); plus, in
 * nutch-ts, `headings` (parse-html's, one value per heading).
 */
import { DatumMeta, getMeta, type IndexingContext, type IndexingFilter, type NutchDocument, type PluginContext } from '../../sdk/plugin.js';

export const CACHING_FORBIDDEN_KEY = 'caching.forbidden';
/** Parse metadata key of the headings parse-html records (its HEADINGS_KEY; plugins do not import each other). */
const HEADINGS_KEY = 'headings';

function cut(s: string, max: number): string {
  return max > -1 && s.length > max ? s.slice(0, max) : s;
}

export class BasicIndexingFilter implements IndexingFilter {
  private readonly maxTitle: number;
  private readonly maxContent: number;

  constructor(ctx: PluginContext) {
    this.maxTitle = ctx.conf.getInt('indexer.max.title.length', -1);
    this.maxContent = ctx.conf.getInt('indexer.max.content.length', -1);
  }

  filter(doc: NutchDocument, ctx: IndexingContext): NutchDocument {
    const datum = ctx.fetchDatum ?? ctx.dbDatum;
    const repr = getMeta(datum?.metaData, DatumMeta.WRITABLE_REPR_URL_KEY);
    const url = repr ?? ctx.url;
    let host: string | undefined;
    try {
      host = new URL(url).hostname || undefined;
    } catch {
      host = undefined;
    }
    if (host) (doc.fields.host ??= []).push(host);
    (doc.fields.url ??= []).push(url);
    if (repr && repr !== ctx.url) (doc.fields.orig ??= []).push(ctx.url);
    (doc.fields.content ??= []).push(cut(ctx.parse.text, this.maxContent));
    const title = cut(ctx.parse.data.title ?? '', this.maxTitle);
    if (title.length > 0) (doc.fields.title ??= []).push(title);
    // parse-html's headings (parser.html.headings): a field of their own, so a ranking can weigh them
    const headings = ctx.parse.data.parseMeta?.[HEADINGS_KEY];
    if (headings?.length) (doc.fields.headings ??= []).push(...headings);
    const caching = getMeta(ctx.parse.data.parseMeta, CACHING_FORBIDDEN_KEY);
    if (caching && caching !== 'none') (doc.fields.cache ??= []).push(caching);
    if (datum) (doc.fields.tstamp ??= []).push(new Date(datum.fetchTime));
    return doc;
  }
}
