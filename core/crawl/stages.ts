/**
 * The default stage table: the real stage functions the crawl loop and createNutch() run. Fetch
 * parses inline (through the parse worker pool) when fetcher.parse is true, as Nutch's Fetcher.
 */
import type { NutchContext } from './context.js';
import type { Counters, StageOptions } from './progress.js';
import type { CrawlStages } from './crawl/crawl-stages.js';
import { inject } from './inject/inject.js';
import { generateSegments } from './generate/generate.js';
import { fetch, type FetchArgs } from './fetch/fetcher.js';
import { parse } from './parse/parse-segment.js';
import { InlineParse } from './parse/inline-parse.js';
import { updatedb } from './updatedb/updatedb.js';
import { invertlinks } from './invertlinks/invertlinks.js';
import { dedup } from './dedup/dedup.js';
import { index } from './index/index.js';
import { clean } from './clean/clean.js';
import { search } from './search/search.js';
import { sitemap } from './sitemap/sitemap-processor.js';
import { updateHostDb } from './hostdb/update-hostdb.js';

/**
 * Fetch, with the inline parse wired when fetcher.parse is true, unless `inlineParse: false` (the crawl
 * loop resuming a fetch whose stopped inline parse it will replace with a whole-segment parse).
 */
export async function fetchStage(ctx: NutchContext, args: FetchArgs & { inlineParse?: boolean }, opts: StageOptions = {}): Promise<Counters> {
  if (!ctx.conf.getBoolean('fetcher.parse') || args.parse || args.inlineParse === false) return fetch(ctx, args, opts);
  const inline = await InlineParse.create(ctx);
  let counters: Counters | undefined;
  try {
    // each partition's parse parts end with its fetch, in the process that fetched it
    counters = await fetch(ctx, { ...args, parse: inline.parse, onPartitionEnd: inline.finishPartition, onSegmentEnd: inline.endSegment }, opts);
  } finally {
    const parsed = await inline.close();
    if (counters) for (const [k, v] of Object.entries(parsed)) counters[`parse.${k}`] = v;
  }
  return counters;
}

export const defaultStages: CrawlStages & { search: typeof search } = {
  inject,
  sitemap,
  updatehostdb: updateHostDb,
  generate: generateSegments,
  fetch: fetchStage,
  parse,
  updatedb,
  invertlinks,
  dedup,
  index,
  clean,
  search,
};
