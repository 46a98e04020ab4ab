/**
 * language-identifier's IndexingFilter, as Nutch's LanguageIndexingFilter: the `lang` field is the parse
 * metadata `language` (set by the HtmlParseFilter), else — for parses that did not pass through it, such
 * as parse-tika's documents, which in Nutch run the same filter — the same policy on the document's
 * dc:language, the Content-Language header and its text, else `unknown`. With lang.index.languages set,
 * a document in another language is not indexed.
 */
import { addField, type IndexingContext, type IndexingFilter, type NutchDocument, type PluginContext } from '../../sdk/plugin.js';
import { LANGUAGE_KEY, LanguageDetector, statedByParseAndServer } from './language-detector.js';

export class LanguageIndexingFilter implements IndexingFilter {
  private readonly detector: LanguageDetector;
  private readonly indexLanguages: ReadonlySet<string>;

  constructor(ctx: PluginContext) {
    this.detector = new LanguageDetector(ctx.conf);
    this.indexLanguages = new Set(ctx.conf.getStrings('lang.index.languages'));
  }

  filter(doc: NutchDocument, ctx: IndexingContext): NutchDocument | null {
    const data = ctx.parse.data;
    const lang = data.parseMeta[LANGUAGE_KEY]?.[0]
      || this.detector.language({ stated: statedByParseAndServer(data.parseMeta, data.contentMeta), title: data.title, text: ctx.parse.text })
      || 'unknown';
    if (this.indexLanguages.size && !this.indexLanguages.has(lang)) return null;
    addField(doc, 'lang', lang);
    return doc;
  }
}
