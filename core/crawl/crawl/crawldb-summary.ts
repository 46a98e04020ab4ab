/**
 * The CrawlDb at the end of a crawl, counted exactly as `readdb -stats` counts it (same scan,
 * crawldb-stats.ts): `crawldb.total` and `crawldb.<status name>`. The crawl summary shows these
 * instead of adding up updatedb's per-status counts, which describe the whole CrawlDb after each
 * round, so their sum over rounds matches nothing readdb shows.
 */
import type { NutchContext } from '../context.js';
import type { Counters } from '../progress.js';
import { statusName } from '../../model/crawl-datum.js';
import { computeStats } from '../readdb/crawldb-stats.js';

export async function crawlDbSummary(ctx: NutchContext, crawlDbPath: string): Promise<Counters> {
  const db = await ctx.storage.openCrawlDb(crawlDbPath);
  try {
    if (db.exists && !(await db.exists())) return {};
    const stats = await computeStats(db, { quantiles: [], batchSize: Math.max(1, ctx.conf.getInt('storage.batch.size', 1000)) });
    const out: Counters = { 'crawldb.total': stats.total };
    for (const [code, n] of Object.entries(stats.status)) out[`crawldb.${statusName(Number(code))}`] = n;
    return out;
  } finally {
    await db.close();
  }
}
