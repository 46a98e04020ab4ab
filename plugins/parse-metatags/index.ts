/**
 * parse-metatags, as Nutch's MetaTagsParser: an HtmlParseFilter that copies the page's meta tags named
 * in metatags.names (or all, with `*`) into the parse metadata as `metatag.<lower-cased name>`, where
 * index-metadata (index.parse.md) and db.parsemeta.to.crawldb find them. Like Nutch it looks at three
 * places: what the parser already put in the parse metadata (a document parser's `author`, `dc:title`…),
 * the `<meta name=…>` tags and the `<meta http-equiv=…>` tags. Every value is kept (multi-valued).
 */
import type { Content, HtmlParseFilter, HTMLMetaTags, Metadata, ParseResult, PluginContext } from '../../sdk/plugin.js';

export const METATAG_PREFIX = 'metatag.';

export class MetaTagsParser implements HtmlParseFilter {
  private readonly names: ReadonlySet<string>;
  private readonly all: boolean;

  constructor(ctx: PluginContext) {
    // Nutch 1.x split the list on ';' before NUTCH-2014 and on ',' since; accept both
    const names = ctx.conf.getStrings('metatags.names').flatMap((n) => n.split(';')).map((n) => n.trim().toLowerCase()).filter(Boolean);
    this.all = names.includes('*');
    this.names = new Set(names);
  }

  private wanted(name: string): boolean {
    return this.all || this.names.has(name);
  }

  filter(content: Content, parseResult: ParseResult, metaTags: HTMLMetaTags): ParseResult {
    const parse = parseResult.parses[content.url] ?? Object.values(parseResult.parses)[0];
    if (!parse) return parseResult;
    const meta = parse.data.parseMeta;
    const found: Metadata = {};
    const add = (name: string, values: readonly string[]) => {
      const lc = name.toLowerCase();
      if (lc.startsWith(METATAG_PREFIX) || !this.wanted(lc)) return;
      (found[METATAG_PREFIX + lc] ??= []).push(...values);
    };
    // what the parser stored first (a document parser's metadata), then the HTML meta tags
    for (const [name, values] of Object.entries(meta)) add(name, values);
    for (const [name, values] of Object.entries(metaTags.generalTags)) add(name, values);
    for (const [name, values] of Object.entries(metaTags.httpEquivTags)) add(name, values);
    for (const [key, values] of Object.entries(found)) meta[key] = [...(meta[key] ?? []), ...values];
    return parseResult;
  }
}
