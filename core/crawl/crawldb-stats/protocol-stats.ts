/**
 * protocolstats, as Nutch's ProtocolStatusStatistics: CrawlDb entries counted by the HTTP status code
 * of their last fetch (`nutch.protocol.code`, set by the fetcher); entries never fetched count as UNFETCHED.
 */
import { DatumMeta } from '../../model/crawl-datum.js';
import type { NutchContext } from '../context.js';
import type { Counters, StageOptions } from '../progress.js';
import { countByKey } from './count-by-key.js';

export async function protocolStats(ctx: NutchContext, args: { crawlDbs: string[]; outDir: string }, opts: StageOptions = {}): Promise<{ counters: Counters; counts: Map<string, number> }> {
  return countByKey(ctx, args, (_url, datum) => [datum.metaData[DatumMeta.PROTOCOL_STATUS_CODE_KEY]?.[0] ?? 'UNFETCHED'], opts);
}
