/**
 * ParseUtil, as Nutch's: picks the parsers for a content type (parse-plugins.json, then each parser's
 * `contentType` parameter), tries them in order — first success wins — and then does what Nutch's
 * ParseSegment does to each parse: a failed one becomes an empty parse keeping its status, outlinks
 * are made absolute (at most parser.outlinks.ceiling of them, the rest counted in parseMeta
 * nutch.parse.outlinks.overCeiling), and the Signature is computed and stored as `nutch.content.digest` in contentMeta.
 * A missing or generic content type is first resolved from the bytes (content-type-sniffer.ts).
 * Runs inside a parse worker (core/parse/parse-worker.ts); the timeout is the pool's business.
 */
import { errorMessage } from '../errors.js';
import type { Logger } from '../log.js';
import type { Configuration } from '../config/configuration.js';
import type { Content } from '../model/content.js';
import {
  DEFAULT_OUTLINKS_CEILING, ParseMeta, ParseStatusCode, ParseStatusMinor, createParseData, failedParse, isParseSuccess, singleParseResult,
  type Outlink, type Parse, type ParseResult,
} from '../model/parse.js';
import { ExtensionPoints } from '../extension-points/extension-point.js';
import type { ExtensionChains } from '../extension-points/extension-chains.js';
import { HtmlParseFilters, type HtmlParseFilter } from '../extension-points/html-parse-filter.js';
import { selectParsers, type Parser, type ParserCandidate, type ParsePluginsMapping } from '../extension-points/parser.js';
import type { Signature } from '../extension-points/signature.js';
import { loadParsePlugins } from './parse-plugins.js';
import { resolveURL } from '../url/resolve-url.js';
import { resolveContentType } from './content-type-sniffer.js';

export interface ParseOutcome {
  result: ParseResult;
  /** Signature of the canonical parse, or null when none was computed. */
  signature: Uint8Array | null;
  /** The parser extension that produced the result (undefined when none succeeded). */
  parser?: string;
}

export class ParseUtil {
  private constructor(
    private readonly parsers: Map<string, Parser>,
    private readonly candidates: readonly ParserCandidate[],
    private readonly mapping: ParsePluginsMapping | null,
    private readonly htmlParseFilters: HtmlParseFilters,
    private readonly signature: Signature,
    private readonly log: Logger,
    private readonly outlinksCeiling: number,
  ) {}

  /** Instantiates every Parser, the HtmlParseFilter chain and the Signature up front (plugins start here). */
  static async create(chains: ExtensionChains, conf: Configuration, log: Logger): Promise<ParseUtil> {
    const mapping = loadParsePlugins(conf);
    const candidates = chains.parserCandidates();
    const parsers = new Map<string, Parser>();
    for (const c of candidates) {
      const ext = chains.repo.findExtension(ExtensionPoints.Parser.id, c.extensionId)!;
      parsers.set(c.extensionId, await chains.repo.getInstance<Parser>(ext));
    }
    const htmlParseFilters = await taggedHtmlParseFilters(chains);
    const signature = await chains.signature();
    return new ParseUtil(parsers, candidates, mapping, htmlParseFilters, signature, log, conf.getInt('parser.outlinks.ceiling', DEFAULT_OUTLINKS_CEILING));
  }

  /** The extension ids tried for a content type, in order. */
  parsersFor(contentType: string): string[] {
    return selectParsers(contentType || 'application/octet-stream', this.mapping, this.candidates);
  }

  async parse(original: Content, forceAs?: string): Promise<ParseOutcome> {
    // A missing or generic type (application/octet-stream) is resolved from the magic bytes, as Nutch's
    // Content does with mime.type.magic; the parser sees the resolved type.
    const contentType = forceAs ?? resolveContentType(original.contentType, original.content);
    const content = contentType === original.contentType ? original : { ...original, contentType };
    const ids = this.parsersFor(contentType);
    let result: ParseResult | null = null;
    let used: string | undefined;
    if (ids.length === 0) {
      result = singleParseResult(content.url, failedParse(`No parser found for content type "${content.contentType}" (${content.url}); map it in parse-plugins.json`, ParseStatusMinor.FAILED_EXCEPTION));
    }
    for (const id of ids) {
      try {
        result = await this.parsers.get(id)!.getParse(content, { htmlParseFilters: this.htmlParseFilters });
      } catch (err) {
        this.log.warn(`Parser ${id} failed on ${content.url.slice(0, 300)}: ${errorMessage(err)}`, { code: 'NUTCH_EXTENSION_FAILED', point: 'Parser', extension: id, url: content.url.slice(0, 300) });
        result = singleParseResult(content.url, failedParse(`${id}: ${errorMessage(err)}`, ParseStatusMinor.FAILED_EXCEPTION));
        continue;
      }
      const canonical = result?.parses?.[content.url] ?? Object.values(result?.parses ?? {})[0];
      if (canonical && isParseSuccess(canonical.data.status)) {
        used = id;
        break;
      }
    }
    if (!result || !result.parses || Object.keys(result.parses).length === 0) {
      result = singleParseResult(content.url, failedParse(`Unable to successfully parse content of ${content.url}`));
    }
    return this.finish(content, result, used);
  }

  /** Empty parse for failures, absolute outlinks, signature — per parse in the result, as ParseSegment. */
  private finish(content: Content, result: ParseResult, parser: string | undefined): ParseOutcome {
    let signature: Uint8Array | null = null;
    for (const [url, original] of Object.entries(result.parses)) {
      let parse: Parse = original;
      if (!isParseSuccess(parse.data.status)) {
        parse = { text: '', data: createParseData({ status: parse.data.status, contentMeta: { ...content.metadata }, parseMeta: parse.data.parseMeta ?? {} }), isCanonical: parse.isCanonical };
      } else {
        const outlinks = absoluteOutlinks(parse.data.outlinks, content.baseUrl || content.url, this.outlinksCeiling);
        parse = { ...parse, data: { ...parse.data, contentMeta: { ...parse.data.contentMeta }, outlinks: outlinks.kept } };
        if (outlinks.over > 0) {
          // Any parser's list is cut here (parse-html already stops collecting at the ceiling and says how many it left).
          const meta = { ...parse.data.parseMeta };
          const before = Number(meta[ParseMeta.OUTLINKS_OVER_CEILING]?.[0]) || 0;
          meta[ParseMeta.OUTLINKS_OVER_CEILING] = [String(before + outlinks.over)];
          parse.data.parseMeta = meta;
        }
      }
      let sig: Uint8Array;
      try {
        sig = this.signature.calculate(parse.isCanonical || url === content.url ? content : subDocument(content, url, parse), parse);
      } catch (err) {
        this.log.warn(`Signature failed on ${url.slice(0, 300)}: ${errorMessage(err)}`, { code: 'NUTCH_EXTENSION_FAILED', point: 'Signature', url: url.slice(0, 300) });
        parse = { text: '', data: createParseData({ status: { majorCode: ParseStatusCode.FAILED, minorCode: ParseStatusMinor.FAILED_EXCEPTION, args: [`Signature: ${errorMessage(err)}`] }, contentMeta: { ...content.metadata } }), isCanonical: parse.isCanonical };
        result.parses[url] = parse;
        continue;
      }
      parse.data.contentMeta[ParseMeta.SIGNATURE] = [toHex(sig)];
      if (url === content.url || signature === null) signature = sig;
      result.parses[url] = parse;
    }
    return { result, signature, parser };
  }
}

/** The HtmlParseFilter chain, each filter's errors tagged with its extension id, plugin and URL. */
async function taggedHtmlParseFilters(chains: ExtensionChains): Promise<HtmlParseFilters> {
  const steps: { extensionId: string; filter: HtmlParseFilter }[] = [];
  for (const ext of chains.htmlParseFilterChain()) {
    const inner = await chains.repo.getInstance<HtmlParseFilter>(ext);
    steps.push({
      extensionId: ext.id,
      filter: {
        async filter(content, result, metaTags, doc) {
          try {
            return await inner.filter(content, result, metaTags, doc);
          } catch (err) {
            throw chains.tag(ExtensionPoints.HtmlParseFilter.id, ext.id, content.url, err);
          }
        },
      },
    });
  }
  return new HtmlParseFilters(steps);
}

/** A sub-document's own Content for its Signature: its text as bytes at its URL. Signed with the whole
 * container's bytes (as Nutch does), every feed entry would share the feed's MD5 and dedup would keep one. */
function subDocument(container: Content, url: string, parse: Parse): Content {
  return { ...container, url, baseUrl: url, content: new TextEncoder().encode(parse.text) };
}

/**
 * Outlinks resolved against the page (a parser may return relative ones) as Nutch's
 * URLUtil.resolveURL — absolute ones stay as written, the `outlink` normalisers clean them later;
 * unresolvable ones dropped; the first `ceiling` kept, the others counted.
 */
function absoluteOutlinks(outlinks: readonly Outlink[], base: string, ceiling: number): { kept: Outlink[]; over: number } {
  const kept: Outlink[] = [];
  let over = 0;
  for (const o of outlinks ?? []) {
    if (typeof o?.toUrl !== 'string') continue;
    const toUrl = resolveURL(o.toUrl, base);
    if (!toUrl) continue;
    if (kept.length < ceiling) kept.push({ ...o, toUrl, anchor: o.anchor ?? '' });
    else over++;
  }
  return { kept, over };
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

export function fromHex(hex: string): Uint8Array | null {
  if (!/^(?:[0-9a-f]{2})*$/i.test(hex)) return null;
  return new Uint8Array(Buffer.from(hex, 'hex'));
}
