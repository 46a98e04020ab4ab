/**
 * What a parse becomes in a segment, as Nutch's ParseSegment (main-thread part) + ParseOutputFormat:
 * parse_text, parse_data (with the kept outlinks only) and crawl_parse — the signature datum, a
 * parse-meta datum (db.parsemeta.to.crawldb), a linked datum for a meta-refresh target, one linked datum
 * per kept outlink, and the scoring adjust datum. Outlinks: at most db.max.outlinks.per.page are kept,
 * and never more than parser.outlinks.ceiling (the parse worker already cut the list there; what it cut
 * is counted as outlinks.overCeiling and logged per page);
 * a URL longer than db.max.outlink.length is dropped before any normaliser or filter sees it;
 * db.ignore.internal.links / db.ignore.external.links (+ .mode, URLExemptionFilter) apply before the
 * `outlink` normalisers and the URL filters. Shared by the parse stage and the fetcher's inline parse.
 */
import { domainOf, hostOf } from '../../url/url-parts.js';
import { chooseRepr } from '../../url/choose-repr.js';
import type { NutchContext } from '../context.js';
import type { Keyed } from '../../storage/interfaces.js';
import { ContentMeta, type Content } from '../../model/content.js';
import { CrawlStatus, DatumMeta, createCrawlDatum, type CrawlDatum } from '../../model/crawl-datum.js';
import type { Logger } from '../../log.js';
import { DEFAULT_OUTLINKS_CEILING, ParseMeta, ParseStatusMinor, isParseSuccess, type Outlink, type Parse, type ParseData, type ParseText } from '../../model/parse.js';
import type { URLNormalizers } from '../../extension-points/url-normalizer.js';
import type { URLFilters } from '../../extension-points/url-filter.js';
import { normalizeThenFilter, type UrlRewrite } from '../../extension-points/normalize-then-filter.js';
import type { URLExemptionFilters } from '../../extension-points/url-exemption-filter.js';
import type { ScoringFilters, ScoringTarget } from '../../extension-points/scoring-filter.js';
import { fromHex, type ParseOutcome } from '../../parse/parse-util.js';

/** Nutch's Fetcher.PERM_REFRESH_TIME: a refresh at most this many seconds counts as permanent. */
export const PERM_REFRESH_TIME = 5;

export interface ParseOutputRecords {
  parseText: Keyed<ParseText>[];
  parseData: Keyed<ParseData>[];
  crawlParse: Keyed<CrawlDatum>[];
}

export interface OutlinkStats {
  /** Outlinks the parsers found. */
  found: number;
  /** Outlinks written (linked datums). */
  kept: number;
  /** Dropped for being longer than db.max.outlink.length. */
  tooLong: number;
  /** Dropped by db.ignore.internal/external.links. */
  ignored: number;
  /** Dropped by a normaliser or a filter. */
  filtered: number;
  /** Beyond parser.outlinks.ceiling: counted by the parser or the parse worker, never held. */
  overCeiling: number;
}

export interface ParseOutputOptions {
  /** Run the `outlink` normalisers (default true). */
  normalize?: boolean;
  /** Run the URL filters (default true). */
  filter?: boolean;
}

type IgnoreMode = 'byHost' | 'byDomain';

export class ParseOutputProcessor {
  private readonly maxOutlinks: number;
  private readonly outlinksCeiling: number;
  private readonly log: Logger;
  private readonly maxOutlinkLength: number;
  private readonly ignoreInternal: boolean;
  private readonly ignoreExternal: boolean;
  private readonly ignoreAlsoRedirects: boolean;
  private readonly ignoreMode: IgnoreMode;
  private readonly interval: number;
  private readonly parseMetaToCrawlDb: string[];
  /** Outlinks: the `outlink` normalisers, then the URL filters. */
  private readonly outlinkRewrite: UrlRewrite;
  /** Meta-refresh targets: the `fetcher` normalisers, then the URL filters. */
  private readonly redirectRewrite: UrlRewrite;

  private constructor(
    ctx: NutchContext,
    normalizers: URLNormalizers | null,
    redirectNormalizers: URLNormalizers | null,
    filters: URLFilters | null,
    private readonly exemptions: URLExemptionFilters,
    private readonly scoring: ScoringFilters,
  ) {
    const conf = ctx.conf;
    const max = conf.getInt('db.max.outlinks.per.page', 100);
    this.outlinksCeiling = conf.getInt('parser.outlinks.ceiling', DEFAULT_OUTLINKS_CEILING);
    // -1 (all, as Nutch) still stops at the ceiling: memory per page is bounded whatever the limit says.
    this.maxOutlinks = Math.min(max < 0 ? Number.MAX_SAFE_INTEGER : max, this.outlinksCeiling);
    this.log = ctx.log;
    this.maxOutlinkLength = conf.getInt('db.max.outlink.length', 4096);
    this.ignoreInternal = conf.getBoolean('db.ignore.internal.links');
    this.ignoreExternal = conf.getBoolean('db.ignore.external.links');
    this.ignoreAlsoRedirects = conf.getBoolean('db.ignore.also.redirects', true);
    this.ignoreMode = conf.getString('db.ignore.external.links.mode', 'byHost') === 'byDomain' ? 'byDomain' : 'byHost';
    this.interval = conf.getInt('db.fetch.interval.default', 2592000);
    this.parseMetaToCrawlDb = conf.getStrings('db.parsemeta.to.crawldb');
    this.outlinkRewrite = normalizeThenFilter(normalizers, filters);
    this.redirectRewrite = normalizeThenFilter(redirectNormalizers, filters);
  }

  /** Instantiates the chains it uses (plugins start here, before any record is read). */
  static async create(ctx: NutchContext, opts: ParseOutputOptions = {}): Promise<ParseOutputProcessor> {
    const normalizers = opts.normalize === false ? null : await ctx.extensions.urlNormalizers('outlink');
    const redirectNormalizers = opts.normalize === false ? null : await ctx.extensions.urlNormalizers('fetcher');
    const filters = opts.filter === false ? null : await ctx.extensions.urlFilters();
    return new ParseOutputProcessor(ctx, normalizers, redirectNormalizers, filters, await ctx.extensions.urlExemptionFilters(), await ctx.extensions.scoringFilters());
  }

  /**
   * ParseSegment's main-thread steps for every parse of an outcome (segment name into contentMeta,
   * ScoringFilter.passScoreAfterParsing), then ParseOutputFormat's records.
   */
  recordsFor(content: Content, outcome: ParseOutcome, segmentName: string, stats?: OutlinkStats): ParseOutputRecords {
    const records: ParseOutputRecords = { parseText: [], parseData: [], crawlParse: [] };
    for (const [url, parse] of Object.entries(outcome.result.parses)) {
      parse.data.contentMeta[ParseMeta.SEGMENT_NAME] = [segmentName];
      this.scoring.passScoreAfterParsing(url, content, parse);
      this.write(url, parse, records, stats);
    }
    return records;
  }

  /** ParseOutputFormat.write for one parse: parse_text, crawl_parse's datums in Nutch's order, parse_data. */
  write(fromUrl: string, parse: Parse, out: ParseOutputRecords, stats?: OutlinkStats): void {
    const data = parse.data;
    out.parseText.push({ url: fromUrl, value: { text: parse.text } });
    this.signatureAndMeta(fromUrl, data, out);
    this.refresh(fromUrl, data, out);
    out.parseData.push({ url: fromUrl, value: this.outlinks(fromUrl, data, out, stats) });
    if (!parse.isCanonical) {
      // A sub-document (archive member, feed entry) gets its own fetch datum, as ParseOutputFormat.
      const fetchTime = Number(data.contentMeta[ContentMeta.FETCH_TIME]?.[0]);
      out.crawlParse.push({ url: fromUrl, value: createCrawlDatum({ status: CrawlStatus.STATUS_FETCH_SUCCESS, fetchTime: Number.isFinite(fetchTime) && fetchTime > 0 ? fetchTime : Date.now() }) });
    }
  }

  /** The signature datum, and the parse-meta datum of db.parsemeta.to.crawldb. */
  private signatureAndMeta(fromUrl: string, data: ParseData, out: ParseOutputRecords): void {
    const sig = data.contentMeta[ParseMeta.SIGNATURE]?.[0];
    const signature = sig ? fromHex(sig) : null;
    if (signature) out.crawlParse.push({ url: fromUrl, value: createCrawlDatum({ status: CrawlStatus.STATUS_SIGNATURE, fetchInterval: 0, signature, score: 0 }) });
    let parseMetaDatum: CrawlDatum | null = null;
    for (const name of this.parseMetaToCrawlDb) {
      const value = data.parseMeta[name]?.[0];
      if (value === undefined) continue;
      parseMetaDatum ??= createCrawlDatum({ status: CrawlStatus.STATUS_PARSE_META, fetchInterval: 0, score: 0 });
      parseMetaDatum.metaData[name] = [value];
    }
    if (parseMetaDatum) out.crawlParse.push({ url: fromUrl, value: parseMetaDatum });
  }

  /** A meta refresh: a linked datum for its target, with the representative URL as Nutch's fetcher chooses it. */
  private refresh(fromUrl: string, data: ParseData, out: ParseOutputRecords): void {
    if (!isParseSuccess(data.status) || data.status.minorCode !== ParseStatusMinor.SUCCESS_REDIRECT) return;
    const target = this.refreshTarget(fromUrl, data.status.args[0], this.ignoreAlsoRedirects);
    if (!target || target === fromUrl) return;
    const delay = Number(data.status.args[1] ?? 0);
    const datum = createCrawlDatum({ status: CrawlStatus.STATUS_LINKED, fetchInterval: this.interval, score: 0 });
    const repr = chooseRepr(fromUrl, target, delay < PERM_REFRESH_TIME);
    if (repr !== target) datum.metaData[DatumMeta.WRITABLE_REPR_URL_KEY] = [repr];
    out.crawlParse.push({ url: target, value: datum });
  }

  /**
   * The outlinks kept (length, ignore rules, normalise-then-filter; at most maxOutlinks distinct
   * targets), a linked datum per distinct target scored by the ScoringFilters, and the adjust datum.
   * Returns the parse data with the kept outlinks only.
   */
  private outlinks(fromUrl: string, data: ParseData, out: ParseOutputRecords, stats?: OutlinkStats): ParseData {
    const over = Number(data.parseMeta[ParseMeta.OUTLINKS_OVER_CEILING]?.[0]) || 0;
    if (over > 0) {
      if (stats) stats.overCeiling += over;
      this.log.warn(`${fromUrl.slice(0, 300)}: ${over} outlinks beyond parser.outlinks.ceiling (${this.outlinksCeiling}) skipped; the first ${this.outlinksCeiling} were considered`, { url: fromUrl.slice(0, 300), property: 'parser.outlinks.ceiling' });
    }
    const links = data.outlinks;
    const targets: ScoringTarget[] = [];
    const kept: Outlink[] = [];
    const seen = new Set<string>();
    let fromKey: string | null | undefined;
    if (stats) stats.found += links.length;
    for (let i = 0; i < links.length && targets.length < this.maxOutlinks; i++) {
      const link = links[i]!;
      let toUrl: string | null = link.toUrl;
      if (toUrl === fromUrl) continue; // links to self (or to anchors within the page), as Nutch
      if (toUrl.length > this.maxOutlinkLength) {
        if (stats) stats.tooLong++;
        continue;
      }
      if (this.ignoreInternal || this.ignoreExternal) {
        fromKey ??= this.hostKey(fromUrl);
        if (this.ignored(fromUrl, fromKey, toUrl)) {
          if (stats) stats.ignored++;
          continue;
        }
      }
      // an empty result is a rejection too
      toUrl = this.outlinkRewrite(toUrl) || '';
      if (!toUrl) {
        if (stats) stats.filtered++;
        continue;
      }
      kept.push({ ...link, toUrl });
      // One linked datum per distinct target: duplicates would only multiply the score it receives.
      if (seen.has(toUrl)) continue;
      seen.add(toUrl);
      const datum = createCrawlDatum({ status: CrawlStatus.STATUS_LINKED, fetchInterval: this.interval, score: 0 });
      if (link.metadata) for (const [k, v] of Object.entries(link.metadata)) datum.metaData[k] = [...v];
      this.scoring.initialScore(toUrl, datum);
      targets.push({ url: toUrl, datum });
    }
    const keptData: ParseData = { ...data, outlinks: kept };
    const adjust = this.scoring.distributeScoreToOutlinks(fromUrl, keptData, targets, null, links.length);
    for (const t of targets) out.crawlParse.push({ url: t.url, value: t.datum });
    if (adjust) out.crawlParse.push({ url: fromUrl, value: adjust });
    if (stats) stats.kept += targets.length;
    return keptData;
  }

  /** A meta-refresh target: the `fetcher` normalisers and the URL filters (the ignore rules only with db.ignore.also.redirects). */
  private refreshTarget(fromUrl: string, target: string | undefined, applyIgnore: boolean): string | null {
    if (!target || target.length > this.maxOutlinkLength) return null;
    if (applyIgnore && (this.ignoreInternal || this.ignoreExternal) && this.ignored(fromUrl, this.hostKey(fromUrl), target)) return null;
    return this.redirectRewrite(target) || null;
  }

  private hostKey(url: string): string | null {
    // a URL without a host (file:) is its own '' host, as java.net.URL#getHost
    const host = hostOf(url) ?? (URL.canParse(url) ? '' : null);
    if (host === null) return null;
    return this.ignoreMode === 'byDomain' ? domainOf(host) : host;
  }

  private ignored(fromUrl: string, fromKey: string | null, toUrl: string): boolean {
    const toKey = this.hostKey(toUrl);
    if (toKey === null || fromKey === null) return true;
    if (this.ignoreInternal && toKey === fromKey) return true;
    if (this.ignoreExternal && toKey !== fromKey) return !this.exemptions.isExempted(fromUrl, toUrl);
    return false;
  }
}

export function emptyOutlinkStats(): OutlinkStats {
  return { found: 0, kept: 0, tooLong: 0, ignored: 0, filtered: 0, overCeiling: 0 };
}
