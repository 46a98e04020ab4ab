/**
 * parse-html: Nutch's HtmlParser on htmlparser2 + domhandler. Detects the charset, builds the DOM, walks
 * it once (text, title, outlinks, base href, meta tags), applies the robots directives (noindex empties
 * text and title and flags parseMeta; nofollow drops every outlink; noarchive forbids caching), turns a
 * meta refresh into SUCCESS_REDIRECT [target, delay], and runs the HtmlParseFilter chain on the DOM.
 */
import { Parser as HtmlParser2, parseDocument } from 'htmlparser2';
import type { Document } from 'domhandler';
import {
  DEFAULT_OUTLINKS_CEILING, ParseMeta, ParseStatusCode, ParseStatusMinor, createParseData, failedParse, parseStatus, resolveURL, singleParseResult,
  type Content, type Metadata, type Outlink, type ParseContext, type ParseResult, type Parser, type PluginContext,
} from '../../sdk/plugin.js';
import { bomlessUtf16, decode, detectEncoding } from './encoding-detector.js';
import { ContentCollector, LINK_ATTRIBUTES, walkDocument, type RawLink, type WalkOptions, type WalkResult } from './dom-content-utils.js';
import { processMetaTags } from './html-meta-processor.js';

/** Parse metadata key of the page's headings (parser.html.headings), which index-basic indexes as `headings`. */
export const HEADINGS_KEY = 'headings';

/** Schemes that never lead to a fetchable page. */
const DROPPED_SCHEMES = new Set(['javascript:', 'mailto:', 'data:', 'tel:', 'about:', 'blob:', 'vbscript:', 'sms:', 'callto:']);
/** Share of control bytes in the first KiB above which "text/html" is binary junk. */
const BINARY_CONTROL_RATIO = 0.05;

const PARSER_OPTIONS = { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true } as const;

export const CACHING_FORBIDDEN_KEY = 'caching.forbidden';
export const ORIGINAL_CHAR_ENCODING = 'OriginalCharEncoding';

export class HtmlParser implements Parser {
  private readonly walkOptions: WalkOptions;
  private readonly sniffBytes: number;
  private readonly defaultEncoding: string;
  private readonly fixEmbeddedParams: boolean;

  constructor(ctx: PluginContext) {
    const conf = ctx.conf;
    const ignore = new Set(conf.getStrings('parser.html.outlinks.ignore_tags').map((t) => t.toLowerCase()));
    const linkTags = new Set(Object.keys(LINK_ATTRIBUTES).filter((t) => !ignore.has(t)));
    if (!conf.getBoolean('parser.html.form.use_action')) linkTags.delete('form');
    this.walkOptions = {
      linkTags,
      lineSeparators: new Set(conf.getStrings('parser.html.line.separators').map((t) => t.toLowerCase())),
      headingTags: new Set(conf.getStrings('parser.html.headings').map((t) => t.toLowerCase())),
      maxTargetLength: conf.getInt('db.max.outlink.length', 4096),
      // Stop collecting at the ceiling: a page of a million links must not cost a million objects here.
      maxLinks: conf.getInt('parser.outlinks.ceiling', DEFAULT_OUTLINKS_CEILING),
    };
    this.sniffBytes = conf.getInt('parser.html.sniff.bytes', 8192);
    this.defaultEncoding = conf.getString('parser.character.encoding.default', 'windows-1252');
    this.fixEmbeddedParams = conf.getBoolean('parser.fix.embeddedparams', true);
  }

  async getParse(content: Content, parseContext?: ParseContext): Promise<ParseResult> {
    const bytes = content.content;
    const utf16 = bomlessUtf16(bytes);
    if (!utf16 && looksBinary(bytes)) {
      return singleParseResult(content.url, failedParse(`Content of ${content.url} labelled ${content.contentType || 'text/html'} is binary`, ParseStatusMinor.FAILED_INVALID_FORMAT));
    }
    const contentType = content.contentType || getHeader(content.metadata, 'content-type');
    const detected = utf16 ? { encoding: utf16 } : detectEncoding(bytes, contentType, { sniffBytes: this.sniffBytes, defaultEncoding: this.defaultEncoding });
    let html = decode(bytes, detected.encoding);
    // stray NULs are not text (and would end the text early in C-string consumers downstream)
    if (html.includes('\0')) html = html.replace(/\0/g, '');
    const filters = parseContext?.htmlParseFilters;
    // The DOM is built only for HtmlParseFilters; without any, the collector rides the tokenizer directly.
    let doc: Document | null = null;
    let walked: WalkResult;
    if (filters && filters.chain.length > 0) {
      doc = parseDocument(html, PARSER_OPTIONS);
      walked = walkDocument(doc, this.walkOptions);
    } else {
      const collector = new ContentCollector(this.walkOptions);
      new HtmlParser2(collector.handler(), PARSER_OPTIONS).end(html);
      walked = collector.result();
    }

    const base = content.baseUrl || content.url;
    const baseUrl = usableBase(walked.baseHref, base);
    const metaTags = processMetaTags(walked.metas, walked.baseHref, baseUrl);

    const parseMeta: Metadata = {
      [ParseMeta.CHARSET]: [detected.encoding],
      [ORIGINAL_CHAR_ENCODING]: [detected.encoding],
    };
    if (metaTags.noIndex) parseMeta[ParseMeta.ROBOTS_NOINDEX] = ['true'];
    else if (walked.headings.length) parseMeta[HEADINGS_KEY] = walked.headings;
    if (walked.linksOverCeiling > 0 && !metaTags.noFollow) parseMeta[ParseMeta.OUTLINKS_OVER_CEILING] = [String(walked.linksOverCeiling)];
    if (metaTags.noFollow) parseMeta[ParseMeta.ROBOTS_NOFOLLOW] = ['true'];
    if (metaTags.noCache) {
      parseMeta[ParseMeta.ROBOTS_NOARCHIVE] = ['true'];
      parseMeta[CACHING_FORBIDDEN_KEY] = ['content'];
    }
    const status = metaTags.refresh && metaTags.refreshHref
      ? parseStatus(ParseStatusCode.SUCCESS, ParseStatusMinor.SUCCESS_REDIRECT, metaTags.refreshHref, String(metaTags.refreshTime))
      : parseStatus(ParseStatusCode.SUCCESS);
    const parse = {
      text: metaTags.noIndex ? '' : walked.text,
      data: createParseData({
        status,
        title: metaTags.noIndex ? '' : walked.title,
        outlinks: metaTags.noFollow ? [] : toOutlinks(walked.links, baseUrl, this.fixEmbeddedParams),
        contentMeta: content.metadata,
        parseMeta,
      }),
      isCanonical: true,
    };
    const result = singleParseResult(content.url, parse);
    return filters && doc ? filters.filter(content, result, metaTags, doc) : result;
  }
}

/**
 * Absolute outlinks, resolved as Nutch's URLUtil.resolveURL (RFC 3986; an absolute target is kept as
 * written — the `outlink` normalisers clean every outlink later); unresolvable targets and
 * non-fetchable schemes are dropped.
 */
export function toOutlinks(links: readonly RawLink[], baseUrl: string, fixEmbeddedParams = false): Outlink[] {
  const out: Outlink[] = [];
  const params = fixEmbeddedParams ? embeddedParams(baseUrl) : null;
  for (const link of links) {
    const target = params && isRelativePath(link.target) ? withParams(link.target, params) : link.target;
    const href = resolveURL(target, baseUrl);
    if (!href) continue;
    const colon = href.indexOf(':');
    if (DROPPED_SCHEMES.has(href.slice(0, colon + 1).toLowerCase())) continue;
    out.push({ toUrl: href, anchor: link.anchor });
  }
  return out;
}

/** `;jsessionid=…` style params in the base URL's path (parser.fix.embeddedparams), or null. */
function embeddedParams(baseUrl: string): string | null {
  const semi = baseUrl.indexOf(';');
  if (semi <= 0) return null;
  const end = baseUrl.slice(semi).search(/[?#]/);
  return end < 0 ? baseUrl.slice(semi) : baseUrl.slice(semi, semi + end);
}

/** The <base href> resolved against the page when it gives a valid hierarchical URL (http, https, ftp, file), else the page. */
function usableBase(baseHref: string | null, pageUrl: string): string {
  const resolved = baseHref ? resolveURL(baseHref, pageUrl) : null;
  return resolved && /^(?:https?|ftp|file):/i.test(resolved) && URL.canParse(resolved) ? resolved : pageUrl;
}

/** A relative reference without its own ;params: absolute and protocol-relative targets keep theirs. */
function isRelativePath(target: string): boolean {
  return !target.includes(';') && !/^\s*(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(target);
}

/** Nutch's fixEmbeddedParams: the base's params move to the target's path, before any query string. */
function withParams(target: string, params: string): string {
  const q = target.search(/[?#]/);
  return q < 0 ? target + params : target.slice(0, q) + params + target.slice(q);
}

function getHeader(md: Metadata, name: string): string | undefined {
  for (const [k, v] of Object.entries(md)) if (k.toLowerCase() === name) return v[0];
  return undefined;
}

/** Many control bytes (NUL aside) in the first KiB (and no UTF-16 BOM): not HTML whatever the label says. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 1024);
  if (n === 0) return false;
  if ((bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe)) return false;
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i]!;
    // NUL alone does not make binary: HTML with stray NULs is still HTML (they are stripped)
    if ((b > 0x00 && b < 0x09) || (b > 0x0d && b < 0x20 && b !== 0x1b)) control++;
  }
  return control / n > BINARY_CONTROL_RATIO;
}
