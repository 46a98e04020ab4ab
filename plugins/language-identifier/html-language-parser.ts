/**
 * language-identifier's HtmlParseFilter, as Nutch's HTMLLanguageParser: finds the page's language and
 * stores its ISO 639-1 code as the parse metadata `language`. Stated clues, in Nutch's order: the first
 * `lang` attribute in the document (usually `<html lang>`), a `dc.language` meta tag, an `http-equiv`
 * Content-Language meta tag, then the Content-Language header; else the text is identified.
 */
import type { Content, HtmlParseFilter, HTMLMetaTags, ParseResult, PluginContext } from '../../sdk/plugin.js';
import { LANGUAGE_KEY, LanguageDetector, statedByParseAndServer } from './language-detector.js';

interface DomNode {
  type?: string;
  attribs?: Record<string, string>;
  children?: DomNode[];
}

/** The first non-empty `lang` (or `xml:lang`) attribute in document order; an explicit stack, never recursion. */
export function firstLangAttribute(doc: unknown): string | undefined {
  const stack: DomNode[] = [doc as DomNode];
  while (stack.length) {
    const node = stack.pop()!;
    const lang = node.attribs?.lang ?? node.attribs?.['xml:lang'];
    if (lang?.trim()) return lang;
    const kids = node.children;
    if (kids) for (let i = kids.length - 1; i >= 0; i--) if (kids[i]!.type === 'tag' || kids[i]!.type === 'root') stack.push(kids[i]!);
  }
  return undefined;
}

export class HTMLLanguageParser implements HtmlParseFilter {
  private readonly detector: LanguageDetector;

  constructor(ctx: PluginContext) {
    this.detector = new LanguageDetector(ctx.conf);
    if (this.detector.empty) ctx.log.warn('language-identifier: lang.extraction.policy names neither detect nor identify; no language is stored');
  }

  filter(content: Content, parseResult: ParseResult, metaTags: HTMLMetaTags, doc: unknown): ParseResult {
    const parse = parseResult.parses[content.url] ?? Object.values(parseResult.parses)[0];
    if (!parse || parse.data.parseMeta[LANGUAGE_KEY]) return parseResult;
    const lang = this.detector.language({
      stated: [
        firstLangAttribute(doc),
        metaTags.generalTags['dc.language']?.[0],
        metaTags.httpEquivTags['content-language']?.[0],
        ...statedByParseAndServer(parse.data.parseMeta, content.metadata),
      ],
      title: parse.data.title,
      text: parse.text,
    });
    if (lang) parse.data.parseMeta[LANGUAGE_KEY] = [lang];
    return parseResult;
  }
}
