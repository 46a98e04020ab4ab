/**
 * index-links, as Nutch's LinksIndexingFilter: `outlinks` holds the page's outlink URLs (from its parse
 * data) and `inlinks` the URLs of the pages linking to it (from the LinkDb), in their order, repeats
 * kept as Nutch keeps them. index.links.hosts.only indexes each link's host instead, once per field;
 * index.links.{outlinks,inlinks}.host.ignore leave out links on the page's own host. A link whose URL
 * has no host is skipped with a warning, as Nutch logs its MalformedURLException.
 */
import { addField, hostOf, type IndexingContext, type IndexingFilter, type Logger, type NutchDocument, type PluginContext } from '../../sdk/plugin.js';

export class LinksIndexingFilter implements IndexingFilter {
  private readonly ignoreOutlinkHost: boolean;
  private readonly ignoreInlinkHost: boolean;
  private readonly hostsOnly: boolean;
  private readonly log: Logger;

  constructor(ctx: PluginContext) {
    this.ignoreOutlinkHost = ctx.conf.getBoolean('index.links.outlinks.host.ignore', false);
    this.ignoreInlinkHost = ctx.conf.getBoolean('index.links.inlinks.host.ignore', false);
    this.hostsOnly = ctx.conf.getBoolean('index.links.hosts.only', false);
    this.log = ctx.log;
  }

  private addLinks(doc: NutchDocument, field: string, pageUrl: string, links: Iterable<string>, ignoreOwnHost: boolean): void {
    const pageHost = ignoreOwnHost ? hostOf(pageUrl) : null;
    const seenHosts = new Set<string>();
    for (const link of links) {
      const host = hostOf(link);
      if (host === null) {
        this.log.warn(`index-links: ${field} of ${pageUrl}: no host in ${JSON.stringify(link.slice(0, 200))}, skipped`);
        continue;
      }
      if (this.hostsOnly) {
        if (seenHosts.has(host)) continue;
        seenHosts.add(host);
      }
      if (ignoreOwnHost && host === pageHost) continue;
      addField(doc, field, this.hostsOnly ? host : link);
    }
  }

  filter(doc: NutchDocument, ctx: IndexingContext): NutchDocument {
    this.addLinks(doc, 'outlinks', ctx.url, ctx.parse.data.outlinks.map((o) => o.toUrl), this.ignoreOutlinkHost);
    if (ctx.inlinks) this.addLinks(doc, 'inlinks', ctx.url, ctx.inlinks.inlinks.map((l) => l.fromUrl), this.ignoreInlinkHost);
    return doc;
  }
}
