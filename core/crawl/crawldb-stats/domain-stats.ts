/**
 * domainstats, as Nutch's DomainStatistics: fetched URLs (db_fetched, db_notmodified) counted per
 * host, domain, public suffix or top-level domain; FETCHED / NOT_FETCHED / EMPTY_RESULT as counters.
 */
import { CrawlStatus } from '../../model/crawl-datum.js';
import { domainOf, publicSuffixOf } from '../../url/url-parts.js';
import type { NutchContext } from '../context.js';
import { count, type Counters, type StageOptions } from '../progress.js';
import { countByKey } from './count-by-key.js';

export type DomainStatsMode = 'host' | 'domain' | 'suffix' | 'tld';
export const DOMAIN_STATS_MODES: readonly DomainStatsMode[] = ['host', 'domain', 'suffix', 'tld'];

export async function domainStats(ctx: NutchContext, args: { crawlDbs: string[]; outDir: string; mode: DomainStatsMode }, opts: StageOptions = {}): Promise<{ counters: Counters; counts: Map<string, number> }> {
  return countByKey(ctx, args, (url, datum, counters) => {
    if (datum.status !== CrawlStatus.STATUS_DB_FETCHED && datum.status !== CrawlStatus.STATUS_DB_NOTMODIFIED) {
      count(counters, 'NOT_FETCHED');
      return [];
    }
    count(counters, 'FETCHED');
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return [];
    }
    const key = args.mode === 'host' ? host : args.mode === 'domain' ? domainOf(host) : args.mode === 'suffix' ? publicSuffixOf(host) ?? '' : host.slice(host.lastIndexOf('.') + 1);
    if (!key.trim()) {
      count(counters, 'EMPTY_RESULT');
      ctx.log.info(`domainstats: no ${args.mode} for ${url}`);
      return [];
    }
    return [key];
  }, opts);
}
