/**
 * urlmeta, as Nutch's URLMetaScoringFilter and URLMetaIndexingFilter: the CrawlDatum metadata keys of
 * urlmeta.tags (typically seed metadata: `http://site/\tcustomer=acme`) travel datum → content → parse
 * metadata → every outlink's datum, so each page reached from a seed carries its seed's values, and the
 * indexing filter adds them as fields of the same name. One value per key, as Nutch's Text metadata
 * (the first when a datum holds several); a page reached from two seeds keeps what updatedb kept.
 */
import { addField, type Content, type CrawlDatum, type IndexingContext, type IndexingFilter, type NutchDocument, type Parse, type ParseData, type PluginContext, type ScoringFilter, type ScoringTarget } from '../../sdk/plugin.js';

function tagsOf(ctx: PluginContext): string[] {
  return ctx.conf.getStrings('urlmeta.tags').map((t) => t.trim()).filter(Boolean);
}

export class URLMetaScoringFilter implements ScoringFilter {
  private readonly tags: string[];

  constructor(ctx: PluginContext) {
    this.tags = tagsOf(ctx);
  }

  passScoreBeforeParsing(_url: string, datum: CrawlDatum, content: Content): void {
    for (const tag of this.tags) {
      const value = datum.metaData[tag]?.[0];
      if (value !== undefined) content.metadata[tag] = [value];
    }
  }

  passScoreAfterParsing(_url: string, content: Content, parse: Parse): void {
    for (const tag of this.tags) {
      const value = content.metadata[tag]?.[0];
      if (value !== undefined) parse.data.parseMeta[tag] = [value];
    }
  }

  distributeScoreToOutlinks(_fromUrl: string, parseData: ParseData, targets: ScoringTarget[], adjust: CrawlDatum | null): CrawlDatum | null {
    for (const tag of this.tags) {
      // as Nutch's ParseData.getMeta: the page's content metadata first, then its parse metadata
      const value = parseData.contentMeta[tag]?.[0] ?? parseData.parseMeta[tag]?.[0];
      if (value === undefined) continue;
      for (const target of targets) target.datum.metaData[tag] = [value];
    }
    return adjust;
  }
}

export class URLMetaIndexingFilter implements IndexingFilter {
  private readonly tags: string[];

  constructor(ctx: PluginContext) {
    this.tags = tagsOf(ctx);
  }

  filter(doc: NutchDocument, ctx: IndexingContext): NutchDocument {
    for (const tag of this.tags) {
      const value = ctx.fetchDatum?.metaData[tag]?.[0] ?? ctx.dbDatum?.metaData[tag]?.[0];
      if (value !== undefined) addField(doc, tag, value);
    }
    return doc;
  }
}
