/** Nutch's crawl directory layout: <crawl>/crawldb, <crawl>/linkdb, <crawl>/hostdb, <crawl>/segments, <crawl>/index. */
import { join } from 'node:path';

export interface CrawlLayout {
  crawlDir: string;
  crawlDb: string;
  linkDb: string;
  /** The HostDb of bin/crawl --hostdbupdate / --hostdbgenerate / --sitemaps-from-hostdb. */
  hostDb: string;
  segmentsDir: string;
  indexDir: string;
}

export function crawlLayout(crawlDir: string): CrawlLayout {
  return {
    crawlDir,
    crawlDb: join(crawlDir, 'crawldb'),
    linkDb: join(crawlDir, 'linkdb'),
    hostDb: join(crawlDir, 'hostdb'),
    segmentsDir: join(crawlDir, 'segments'),
    indexDir: join(crawlDir, 'index'),
  };
}
