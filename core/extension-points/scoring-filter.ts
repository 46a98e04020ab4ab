/**
 * ScoringFilter — combine rule: REDUCE. Every filter in `scoring.filter.order` (only the listed ids
 * when set, else every active one by id) sees the value the previous one produced; methods mutate the
 * datum they are given, as in Nutch. Every method is optional; an absent one passes the value on.
 */
import type { CrawlDatum } from '../model/crawl-datum.js';
import type { Content } from '../model/content.js';
import type { Parse, ParseData } from '../model/parse.js';
import type { Inlinks } from '../model/inlinks.js';
import type { NutchDocument } from '../model/nutch-document.js';

export interface ScoringTarget {
  url: string;
  datum: CrawlDatum;
}

export interface ScoringFilter {
  /** Sets the score of a freshly injected datum. */
  injectedScore?(url: string, datum: CrawlDatum): void;
  /** Sets the initial score of a page first discovered as an outlink. */
  initialScore?(url: string, datum: CrawlDatum): void;
  /** Sort value for the generator (higher first). */
  generatorSortValue?(url: string, datum: CrawlDatum, initSort: number): number;
  /** Copies score data from the datum into the content's metadata before parsing. */
  passScoreBeforeParsing?(url: string, datum: CrawlDatum, content: Content): void;
  /** Copies score data from the content into the parse's metadata after parsing. */
  passScoreAfterParsing?(url: string, content: Content, parse: Parse): void;
  /** Distributes the page's score to its outlinks' datums; returns the adjust datum (or null). */
  distributeScoreToOutlinks?(fromUrl: string, parseData: ParseData, targets: ScoringTarget[], adjust: CrawlDatum | null, allCount: number): CrawlDatum | null;
  /** Computes the new CrawlDb score from the old datum and the inlinked datums. */
  updateDbScore?(url: string, old: CrawlDatum | null, datum: CrawlDatum, inlinked: CrawlDatum[]): void;
  /** Document boost for the indexer. */
  indexerScore?(url: string, doc: NutchDocument, dbDatum: CrawlDatum | null, fetchDatum: CrawlDatum | null, parse: Parse | null, inlinks: Inlinks | null, initScore: number): number;
  /** Score of a page that lost all its inlinks. */
  orphanedScore?(url: string, datum: CrawlDatum): void;
}

export class ScoringFilters {
  constructor(
    private readonly steps: readonly { extensionId: string; filter: ScoringFilter }[],
    private readonly onError: (extensionId: string, url: string, err: unknown) => never = (id, _url, err) => { throw err; },
  ) {}

  get chain(): readonly string[] {
    return this.steps.map((s) => s.extensionId);
  }

  /** Does any filter of the chain implement this optional method? (Lets a stage skip work the common chains never do.) */
  anyImplements(method: keyof ScoringFilter): boolean {
    return this.steps.some((s) => typeof s.filter[method] === 'function');
  }

  private each(url: string, fn: (f: ScoringFilter) => void): void {
    for (const s of this.steps) {
      try {
        fn(s.filter);
      } catch (err) {
        this.onError(s.extensionId, url, err);
      }
    }
  }

  injectedScore(url: string, datum: CrawlDatum): void {
    this.each(url, (f) => f.injectedScore?.(url, datum));
  }

  initialScore(url: string, datum: CrawlDatum): void {
    this.each(url, (f) => f.initialScore?.(url, datum));
  }

  generatorSortValue(url: string, datum: CrawlDatum, initSort: number): number {
    let sort = initSort;
    this.each(url, (f) => {
      if (f.generatorSortValue) sort = f.generatorSortValue(url, datum, sort);
    });
    return sort;
  }

  passScoreBeforeParsing(url: string, datum: CrawlDatum, content: Content): void {
    this.each(url, (f) => f.passScoreBeforeParsing?.(url, datum, content));
  }

  passScoreAfterParsing(url: string, content: Content, parse: Parse): void {
    this.each(url, (f) => f.passScoreAfterParsing?.(url, content, parse));
  }

  distributeScoreToOutlinks(fromUrl: string, parseData: ParseData, targets: ScoringTarget[], adjust: CrawlDatum | null, allCount: number): CrawlDatum | null {
    let result = adjust;
    this.each(fromUrl, (f) => {
      if (f.distributeScoreToOutlinks) result = f.distributeScoreToOutlinks(fromUrl, parseData, targets, result, allCount);
    });
    return result;
  }

  updateDbScore(url: string, old: CrawlDatum | null, datum: CrawlDatum, inlinked: CrawlDatum[]): void {
    this.each(url, (f) => f.updateDbScore?.(url, old, datum, inlinked));
  }

  indexerScore(url: string, doc: NutchDocument, dbDatum: CrawlDatum | null, fetchDatum: CrawlDatum | null, parse: Parse | null, inlinks: Inlinks | null, initScore: number): number {
    let score = initScore;
    this.each(url, (f) => {
      if (f.indexerScore) score = f.indexerScore(url, doc, dbDatum, fetchDatum, parse, inlinks, score);
    });
    return score;
  }

  orphanedScore(url: string, datum: CrawlDatum): void {
    this.each(url, (f) => f.orphanedScore?.(url, datum));
  }
}
