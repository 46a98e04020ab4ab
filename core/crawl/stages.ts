/**
 * The default stage table: the real stage functions the crawl loop and createNutch() run. Fetch
 * parses inline (through the parse worker pool) when fetcher.parse is true, as Nutch's Fetcher
 * (fetch/fetch-stage.ts, re-exported here).
 */
import type { CrawlStages } from './crawl/crawl-stages.js';
import { inject } from './inject/inject.js';
import { generateSegments } from './generate/generate.js';
import { fetchStage } from './fetch/fetch-stage.js';
import { parse } from './parse/parse-segment.js';
import { updatedb } from './updatedb/updatedb.js';
import { invertlinks } from './invertlinks/invertlinks.js';
import { dedup } from './dedup/dedup.js';
import { index } from './index/index.js';
import { clean } from './clean/clean.js';
import { search } from './search/search.js';
import { sitemap } from './sitemap/sitemap-processor.js';
import { updateHostDb } from './hostdb/update-hostdb.js';

export { fetchStage };

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
