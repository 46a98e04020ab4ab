/**
 * subcollection, as Nutch's SubcollectionIndexingFilter: adds the name of every subcollection of
 * subcollections.xml whose lists take the document's URL (subcollections-file.ts) to the field
 * subcollection.default.fieldname, or to the subcollection's own `<key>`. A page whose metadata carries
 * subcollection.metadata.source gets that value alone instead.
 */
import { readFileSync } from 'node:fs';
import { addField, getMetaIgnoreCase, resolveConfFile, type IndexingContext, type IndexingFilter, type NutchDocument, type PluginContext } from '../../sdk/plugin.js';
import { inSubcollection, parseSubcollections, type Subcollection } from './subcollections-file.js';

export class SubcollectionIndexingFilter implements IndexingFilter {
  private readonly collections: Subcollection[];
  private readonly fieldName: string;
  private readonly caseInsensitive: boolean;
  private readonly metadataSource: string;

  constructor(ctx: PluginContext) {
    const conf = ctx.conf;
    this.fieldName = conf.getString('subcollection.default.fieldname', 'subcollection');
    this.caseInsensitive = conf.getBoolean('subcollection.case.insensitive', false);
    this.metadataSource = conf.getString('subcollection.metadata.source', 'subcollection');
    const path = resolveConfFile(conf, conf.getString('subcollections.config', 'subcollections.xml'), 'subcollections.config');
    this.collections = parseSubcollections(readFileSync(path, 'utf8'), path, this.caseInsensitive);
    ctx.log.debug(`subcollection: ${this.collections.length} subcollection(s) from ${path}`);
  }

  filter(doc: NutchDocument, ctx: IndexingContext): NutchDocument {
    const data = ctx.parse.data;
    const stated = (getMetaIgnoreCase(data.contentMeta, this.metadataSource) ?? getMetaIgnoreCase(data.parseMeta, this.metadataSource))?.trim();
    if (stated) {
      addField(doc, this.fieldName, stated);
      return doc;
    }
    const url = this.caseInsensitive ? ctx.url.toLowerCase() : ctx.url;
    for (const c of this.collections) if (inSubcollection(c, url)) addField(doc, c.key ?? this.fieldName, c.name);
    return doc;
  }
}
