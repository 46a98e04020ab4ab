/**
 * The stage functions the crawl loop runs, as one table so the loop reads as bin/crawl and tests can
 * observe the sequence. `defaultStages` (stages.ts) wires the real ones.
 */
import type { NutchContext } from '../context.js';
import type { Counters, StageOptions } from '../progress.js';
import type { GenerateResult } from '../generate/generate.js';

type Stage<A> = (ctx: NutchContext, args: A, opts: StageOptions) => Promise<Counters>;

export interface CrawlStages {
  inject: Stage<{ crawlDb: string; urlDir: string }>;
  /** bin/crawl -sm: the sitemaps of a -sitemapUrls directory merged into the CrawlDb before round 1. */
  sitemap?: Stage<{ crawlDb: string; sitemapUrls?: string; hosts?: AsyncIterable<string>; threads?: number }>;
  /** bin/crawl --hostdbupdate: the HostDb rebuilt from the CrawlDb at the start of each round. */
  updatehostdb?: Stage<{ hostDb: string; crawlDb: string }>;
  /** Generate also says which segments it created (Nutch's bin/crawl lists the segments dir instead). */
  generate: (ctx: NutchContext, args: { crawlDb: string; segmentsDir: string; topN?: number; numFetchers?: number; noFilter?: boolean; hostDb?: string; segmentMeta?: Record<string, string> }, opts: StageOptions) => Promise<GenerateResult>;
  /** `inlineParse: false` turns fetcher.parse off for this fetch (a resumed fetch; parse follows). */
  fetch: Stage<{ segment: string; threads?: number; inlineParse?: boolean }>;
  parse: Stage<{ segment: string; force?: boolean }>;
  updatedb: Stage<{ crawlDb: string; segments: string[] }>;
  invertlinks: Stage<{ linkDb: string; segments: string[]; noNormalize?: boolean; noFilter?: boolean }>;
  dedup: Stage<{ crawlDb: string; group?: 'none' | 'host' | 'domain' }>;
  index: Stage<{ crawlDb: string; linkDb?: string; segments: string[]; crawlDir?: string }>;
  clean: Stage<{ crawlDb: string; crawlDir?: string }>;
}
