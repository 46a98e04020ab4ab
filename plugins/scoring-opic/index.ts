/**
 * Nutch's OPICScoringFilter: an implementation of the On-line Page Importance Computation of
 * Abiteboul, Preda and Cobena (2003), as Nutch approximates it. A page's score travels with its
 * fetch (content metadata `nutch.crawl.score`), is divided among its outlinks when parsed, and every
 * page's CrawlDb score grows by the sum of what its inlinks carried in. As in Nutch, the page keeps
 * its own cash (no adjust datum) and freshly discovered pages start at 0.
 */
import { ParseMeta, type Content, type CrawlDatum, type Inlinks, type NutchDocument, type Parse, type ParseData, type PluginContext, type ScoringFilter, type ScoringTarget, hostOf } from '../../sdk/plugin.js';

export class OPICScoringFilter implements ScoringFilter {
  private readonly scorePower: number;
  private readonly internalScoreFactor: number;
  private readonly externalScoreFactor: number;
  private readonly countFiltered: boolean;
  private readonly log: PluginContext['log'];

  constructor(ctx: PluginContext) {
    this.scorePower = ctx.conf.getFloat('indexer.score.power', 0.5);
    this.internalScoreFactor = ctx.conf.getFloat('db.score.link.internal', 1);
    this.externalScoreFactor = ctx.conf.getFloat('db.score.link.external', 1);
    this.countFiltered = ctx.conf.getBoolean('db.score.count.filtered', false);
    this.log = ctx.log;
  }

  /** The injector already set db.score.injected; nothing to add. */
  injectedScore(_url: string, _datum: CrawlDatum): void {}

  /** 0 (unknown): the inlink contributions bring it to the right level, and a new page has at least one. */
  initialScore(_url: string, datum: CrawlDatum): void {
    datum.score = 0;
  }

  generatorSortValue(_url: string, datum: CrawlDatum, initSort: number): number {
    return datum.score * initSort;
  }

  /** The score grows by the sum of the inlinked scores. */
  updateDbScore(_url: string, old: CrawlDatum | null, datum: CrawlDatum, inlinked: CrawlDatum[]): void {
    let adjust = 0;
    for (const linked of inlinked) adjust += linked.score;
    datum.score = (old ?? datum).score + adjust;
  }

  /** The datum's score rides along in the content metadata. */
  passScoreBeforeParsing(_url: string, datum: CrawlDatum, content: Content): void {
    content.metadata[ParseMeta.SCORE] = [String(datum.score)];
  }

  passScoreAfterParsing(_url: string, content: Content, parse: Parse): void {
    const score = content.metadata[ParseMeta.SCORE];
    if (score) parse.data.contentMeta[ParseMeta.SCORE] = [...score];
    else delete parse.data.contentMeta[ParseMeta.SCORE];
  }

  /**
   * The page's score divided by its outlinks (all of them with db.score.count.filtered, else the
   * kept ones), times db.score.link.internal for the same host or db.score.link.external otherwise.
   * Without a score in the parse metadata there is nothing to distribute (Nutch's score is then 0).
   */
  distributeScoreToOutlinks(fromUrl: string, parseData: ParseData, targets: ScoringTarget[], adjust: CrawlDatum | null, allCount: number): CrawlDatum | null {
    let score = 0;
    const scoreString = parseData.contentMeta[ParseMeta.SCORE]?.[0];
    if (scoreString !== undefined) {
      const parsed = Number.parseFloat(scoreString);
      if (Number.isNaN(parsed)) this.log.warn(`OPIC: unparseable ${ParseMeta.SCORE} "${scoreString.slice(0, 50)}" in parse data of ${fromUrl.slice(0, 300)}`);
      else score = parsed;
    }
    if (this.countFiltered) {
      if (allCount === 0) return adjust;
      score /= allCount;
    } else {
      if (targets.length === 0) return adjust;
      score /= targets.length;
    }
    const internalScore = score * this.internalScoreFactor;
    const externalScore = score * this.externalScoreFactor;
    const fromHost = hostOf(fromUrl);
    for (const target of targets) {
      const toHost = hostOf(target.url);
      target.datum.score = fromHost !== null && toHost !== null && toHost === fromHost ? internalScore : externalScore;
    }
    return adjust;
  }

  /** The boost, dampened by indexer.score.power. */
  indexerScore(_url: string, _doc: NutchDocument, dbDatum: CrawlDatum | null, _fetchDatum: CrawlDatum | null, _parse: Parse | null, _inlinks: Inlinks | null, initScore: number): number {
    if (!dbDatum) return initScore;
    return Math.pow(dbDatum.score, this.scorePower) * initScore;
  }
}
