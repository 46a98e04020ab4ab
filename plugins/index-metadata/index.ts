/**
 * index-metadata, as Nutch's MetadataIndexer: copies the CrawlDb metadata keys of index.db.md, the
 * content metadata keys of index.content.md and the parse metadata keys of index.parse.md into
 * fields named as the keys; index.metadata.separator splits values.
 */
import type { IndexingContext, IndexingFilter, Metadata, NutchDocument, PluginContext } from '../../sdk/plugin.js';

export class MetadataIndexer implements IndexingFilter {
  private readonly db: string[];
  private readonly content: string[];
  private readonly parse: string[];
  private readonly separator: string;

  constructor(ctx: PluginContext) {
    this.db = ctx.conf.getStrings('index.db.md');
    this.content = ctx.conf.getStrings('index.content.md');
    this.parse = ctx.conf.getStrings('index.parse.md');
    this.separator = ctx.conf.getString('index.metadata.separator', '');
  }

  private add(doc: NutchDocument, name: string, values: string[] | undefined): void {
    if (!values?.length) return;
    const list = (doc.fields[name] ??= []);
    for (const v of values) {
      if (this.separator) list.push(...v.split(this.separator).map((s) => s.trim()).filter(Boolean));
      else list.push(v);
    }
    if (list.length === 0) delete doc.fields[name];
  }

  private static ignoreCase(md: Metadata, key: string): string[] | undefined {
    if (md[key]) return md[key];
    const lc = key.toLowerCase();
    for (const [k, v] of Object.entries(md)) if (k.toLowerCase() === lc) return v;
    return undefined;
  }

  filter(doc: NutchDocument, ctx: IndexingContext): NutchDocument {
    for (const key of this.db) this.add(doc, key, ctx.dbDatum?.metaData[key] ?? ctx.fetchDatum?.metaData[key]);
    for (const key of this.parse) this.add(doc, key, ctx.parse.data.parseMeta[key]);
    for (const key of this.content) this.add(doc, key, MetadataIndexer.ignoreCase(ctx.parse.data.contentMeta, key));
    return doc;
  }
}
