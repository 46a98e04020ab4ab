/**
 * The shared shape of domainstats, protocolstats and crawlcomplete (Nutch's DomainStatistics,
 * ProtocolStatusStatistics and CrawlCompletionStats): one pass over one or more CrawlDbs, a count per
 * key, written as Nutch's reducers write them — `<count>\t<key>` lines in `<outDir>/part-r-00000`
 * (keys sorted). The counts are held per key (hosts, domains, codes), never per URL.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NutchError } from '../../errors.js';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { NutchContext } from '../context.js';
import { requireExisting } from '../existing-stores.js';
import type { Counters, StageOptions } from '../progress.js';

export const STATS_FILE = 'part-r-00000';

export async function countByKey(
  ctx: NutchContext,
  args: { crawlDbs: string[]; outDir: string },
  keysOf: (url: string, datum: CrawlDatum, counters: Counters) => string[],
  opts: StageOptions = {},
): Promise<{ counters: Counters; counts: Map<string, number> }> {
  if (existsSync(args.outDir)) throw new NutchError('NUTCH_USAGE', `Output directory ${args.outDir} already exists (as Hadoop, nothing is overwritten): remove it or name another.`, { file: args.outDir });
  const counts = new Map<string, number>();
  const counters: Counters = {};
  for (const path of args.crawlDbs) {
    const db = await ctx.storage.openCrawlDb(path);
    try {
      await requireExisting(db, 'CrawlDb', path);
      for await (const { url, value } of db.scan()) {
        if (opts.signal?.aborted) return { counters: { ...counters, stopped: 1 }, counts };
        for (const key of keysOf(url, value, counters)) counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    } finally {
      await db.close();
    }
  }
  mkdirSync(args.outDir, { recursive: true });
  const keys = [...counts.keys()].sort();
  writeFileSync(join(args.outDir, STATS_FILE), keys.map((k) => `${counts.get(k)}\t${k}\n`).join(''));
  return { counters, counts };
}
