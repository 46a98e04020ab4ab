/**
 * crawlcomplete, as Nutch's CrawlCompletionStats: per host or domain, how many CrawlDb entries are
 * fetched (db_fetched, db_notmodified) and how many not: keys `<host> FETCHED` and `<host> UNFETCHED`.
 */
import { CrawlStatus } from '../../model/crawl-datum.js';
import { domainOf } from '../../url/url-parts.js';
import type { NutchContext } from '../context.js';
import type { Counters, StageOptions } from '../progress.js';
import { countByKey } from './count-by-key.js';

export async function crawlCompletion(ctx: NutchContext, args: { crawlDbs: string[]; outDir: string; mode: 'host' | 'domain' }, opts: StageOptions = {}): Promise<{ counters: Counters; counts: Map<string, number> }> {
  return countByKey(ctx, args, (url, datum) => {
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      ctx.log.error(`crawlcomplete: failed to get host or domain from URL ${url}`);
      return [];
    }
    const key = args.mode === 'host' ? host : domainOf(host);
    const fetched = datum.status === CrawlStatus.STATUS_DB_FETCHED || datum.status === CrawlStatus.STATUS_DB_NOTMODIFIED;
    return [`${key} ${fetched ? 'FETCHED' : 'UNFETCHED'}`];
  }, opts);
}
