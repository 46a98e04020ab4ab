/** Nutch's crawl directory layout: <crawl>/crawldb, <crawl>/linkdb, <crawl>/segments, <crawl>/index. */
import { join } from 'node:path';

export interface CrawlLayout {
  crawlDir: string;
  crawlDb: string;
  linkDb: string;
  segmentsDir: string;
  indexDir: string;
}

export function crawlLayout(crawlDir: string): CrawlLayout {
  return {
    crawlDir,
    crawlDb: join(crawlDir, 'crawldb'),
    linkDb: join(crawlDir, 'linkdb'),
    segmentsDir: join(crawlDir, 'segments'),
    indexDir: join(crawlDir, 'index'),
  };
}
