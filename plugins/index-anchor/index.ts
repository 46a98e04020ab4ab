/**
 * index-anchor, as Nutch's AnchorIndexingFilter: adds the anchor texts of the page's inlinks (from
 * the LinkDb) as `anchor`. Inlinks.getAnchors keeps one anchor per text and source domain; with
 * anchorIndexingFilter.deduplicate an anchor is added once whatever its case.
 */
import { hostOf, type IndexingContext, type IndexingFilter, type NutchDocument, type PluginContext } from '../../sdk/plugin.js';

export class AnchorIndexingFilter implements IndexingFilter {
  private readonly deduplicate: boolean;

  constructor(ctx: PluginContext) {
    this.deduplicate = ctx.conf.getBoolean('anchorIndexingFilter.deduplicate', false);
  }

  filter(doc: NutchDocument, ctx: IndexingContext): NutchDocument {
    const links = ctx.inlinks?.inlinks ?? [];
    const perDomain = new Set<string>();
    const seen = new Set<string>();
    for (const link of links) {
      if (!link.anchor) continue;
      const key = `${hostOf(link.fromUrl) ?? link.fromUrl}\n${link.anchor}`;
      if (perDomain.has(key)) continue;
      perDomain.add(key);
      if (this.deduplicate) {
        const lc = link.anchor.toLowerCase();
        if (seen.has(lc)) continue;
        seen.add(lc);
      }
      (doc.fields.anchor ??= []).push(link.anchor);
    }
    return doc;
  }
}
