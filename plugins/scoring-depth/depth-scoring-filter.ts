/**
 * scoring-depth, as Nutch's DepthScoringFilter: every CrawlDatum carries its hop count from the seeds
 * (`_depth_`, seeds are 1) and its maximum (`_maxdepth_`: the seed's own, scoring.depth.max, or
 * scoring.depth.max.override for pages matching scoring.depth.override.pattern). A page at its maximum
 * depth passes none of its outlinks on to the CrawlDb; a page reached by several paths keeps the
 * shortest; the generator prefers shallow pages (sort value × (1 + max − depth)). Depth travels
 * datum → content → parse metadata like any score, so a page parsed later still knows it.
 */
import type { Content, CrawlDatum, Parse, ParseData, PluginContext, ScoringFilter, ScoringTarget, Logger } from '../../sdk/plugin.js';

export const DEPTH_KEY = '_depth_';
export const MAX_DEPTH_KEY = '_maxdepth_';
/** Nutch's default: a depth the web graph only reaches in spam cliques. */
const DEFAULT_MAX_DEPTH = 1000;

function intOf(values: string[] | undefined): number | null {
  const n = Number(values?.[0]);
  return values?.length && Number.isInteger(n) ? n : null;
}

export class DepthScoringFilter implements ScoringFilter {
  private readonly log: Logger;
  private readonly defaultMaxDepth: number;
  private readonly overridePattern: RegExp | null;
  private readonly maxDepthOverride: number;

  constructor(ctx: PluginContext) {
    this.log = ctx.log;
    const max = ctx.conf.getInt('scoring.depth.max', DEFAULT_MAX_DEPTH);
    this.defaultMaxDepth = max > 0 ? max : DEFAULT_MAX_DEPTH;
    const pattern = ctx.conf.getString('scoring.depth.override.pattern');
    this.overridePattern = pattern ? new RegExp(pattern) : null;
    this.maxDepthOverride = ctx.conf.getInt('scoring.depth.max.override', 10);
  }

  injectedScore(url: string, datum: CrawlDatum): void {
    // a seed's `_maxdepth_=N` metadata is its own limit; a value that is not a number is the default
    const own = intOf(datum.metaData[MAX_DEPTH_KEY]);
    if (datum.metaData[MAX_DEPTH_KEY] && own === null) this.log.warn(`seed ${url}: ${MAX_DEPTH_KEY}=${datum.metaData[MAX_DEPTH_KEY]![0]} is not an integer; scoring.depth.max (${this.defaultMaxDepth}) applies`);
    datum.metaData[MAX_DEPTH_KEY] = [String(own ?? this.defaultMaxDepth)];
    datum.metaData[DEPTH_KEY] = ['1'];
  }

  initialScore(_url: string, datum: CrawlDatum): void {
    // a redirect target may already carry the values of the page that redirected
    datum.metaData[MAX_DEPTH_KEY] ??= [String(this.defaultMaxDepth)];
    datum.metaData[DEPTH_KEY] ??= ['1'];
  }

  generatorSortValue(_url: string, datum: CrawlDatum, initSort: number): number {
    const max = intOf(datum.metaData[MAX_DEPTH_KEY]) ?? this.defaultMaxDepth;
    // a datum without a depth sorts as if at its maximum
    const depth = intOf(datum.metaData[DEPTH_KEY]) ?? max;
    return initSort * (1 + max - depth);
  }

  passScoreBeforeParsing(_url: string, datum: CrawlDatum, content: Content): void {
    for (const key of [DEPTH_KEY, MAX_DEPTH_KEY]) if (datum.metaData[key]) content.metadata[key] = [datum.metaData[key]![0]!];
  }

  passScoreAfterParsing(_url: string, content: Content, parse: Parse): void {
    for (const key of [DEPTH_KEY, MAX_DEPTH_KEY]) if (content.metadata[key]) parse.data.parseMeta[key] = [content.metadata[key]![0]!];
  }

  distributeScoreToOutlinks(fromUrl: string, parseData: ParseData, targets: ScoringTarget[], adjust: CrawlDatum | null): CrawlDatum | null {
    if (!targets.length) return adjust;
    const depth = intOf(parseData.parseMeta[DEPTH_KEY]);
    if (depth === null) {
      this.log.warn(`Missing depth, removing all outlinks from url ${fromUrl}`);
      targets.length = 0;
      return adjust;
    }
    let max = this.defaultMaxDepth;
    let custom: number | null = intOf(parseData.parseMeta[MAX_DEPTH_KEY]);
    if (custom !== null) max = custom;
    if (this.overridePattern) {
      max = this.overridePattern.test(fromUrl) ? this.maxDepthOverride : this.defaultMaxDepth;
      custom = max;
    }
    if (depth >= max) {
      this.log.info(`Depth limit (${max}) reached, ignoring outlinks for ${fromUrl}`);
      targets.length = 0;
      return adjust;
    }
    for (const t of targets) {
      t.datum.metaData[DEPTH_KEY] = [String(depth + 1)];
      if (custom !== null) t.datum.metaData[MAX_DEPTH_KEY] = [String(custom)];
    }
    return adjust;
  }

  updateDbScore(url: string, old: CrawlDatum | null, datum: CrawlDatum, inlinked: CrawlDatum[]): void {
    // the shortest known path wins
    let depth = DEFAULT_MAX_DEPTH;
    if (old) {
      const oldDepth = intOf(old.metaData[DEPTH_KEY]);
      if (oldDepth !== null) depth = oldDepth;
      else this.initialScore(url, old);
    }
    for (const link of inlinked) {
      const d = intOf(link.metaData[DEPTH_KEY]);
      if (d !== null && d < depth) depth = d;
    }
    datum.metaData[DEPTH_KEY] = [String(depth)];
  }
}
