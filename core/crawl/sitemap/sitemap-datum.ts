/**
 * A sitemap entry as a CrawlDatum, as Nutch's SitemapProcessor makes it: the score is the entry's
 * priority (crawler-commons' default 0.5 when absent), changefreq sets the fetch interval (always 1 s,
 * hourly, daily, weekly, monthly = 30 days, yearly = 365 days, never = Integer.MAX_VALUE seconds) and
 * lastmod the modified time. Without changefreq Nutch leaves the interval unset; nutch-ts uses
 * db.fetch.interval.default, so a sitemap URL is scheduled like an injected one.
 */
import { createCrawlDatum, CrawlStatus, type CrawlDatum } from '../../model/crawl-datum.js';
import type { SitemapUrl } from './sitemap-parser.js';

export const DEFAULT_PRIORITY = 0.5;

const INTERVALS: Record<string, number> = {
  always: 1, hourly: 3600, daily: 86_400, weekly: 604_800, monthly: 2_592_000, yearly: 31_536_000, never: 2_147_483_647,
};

export function sitemapDatum(entry: SitemapUrl, now: number, defaultInterval: number): CrawlDatum {
  return createCrawlDatum({
    status: CrawlStatus.STATUS_INJECTED,
    fetchTime: now,
    score: entry.priority ?? DEFAULT_PRIORITY,
    fetchInterval: (entry.changefreq !== null ? INTERVALS[entry.changefreq] : undefined) ?? defaultInterval,
    modifiedTime: entry.lastmod ?? 0,
  });
}
