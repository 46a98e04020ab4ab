/**
 * readdb (`nutch readdb <crawldb> (-stats [-sort] [-json] | -dump <out> [-format …] [-status S]
 * [-regex R] [-retry N] | -url <url> | -topN N <out> [<min>])`), as Nutch's CrawlDbReader. Read-only:
 * it never takes the writer lock and streams the CrawlDb page by page.
 */
import { NutchError } from '../../errors.js';
import type { NutchContext } from '../context.js';
import { requireExisting } from '../existing-stores.js';
import type { Counters, StageOptions } from '../progress.js';
import { StageRun } from '../stage-run.js';
import { computeStats, formatStats, statsToJson } from './crawldb-stats.js';
import { dumpCrawlDb, topNCrawlDb, type DumpFormat } from './crawldb-dump.js';
import { datumToString } from './datum-format.js';

export interface ReaddbArgs {
  crawlDb: string;
  stats?: boolean;
  /** -stats -sort: counts by host under each status. */
  sort?: boolean;
  /** -stats -json / -url -json: machine-readable output. */
  json?: boolean;
  /** -dump <out>. */
  dump?: string;
  format?: DumpFormat;
  status?: string;
  regex?: string;
  retry?: number;
  url?: string;
  /** -topN <n> <out> [<min>]. */
  topN?: number;
  topNOut?: string;
  min?: number;
  /** Receives what Nutch prints to System.out (stats, -url); default the context's log. */
  print?(text: string): void | Promise<void>;
}

export async function readdb(ctx: NutchContext, args: ReaddbArgs, opts: StageOptions = {}): Promise<Counters> {
  const run = new StageRun(ctx, 'readdb', opts);
  const { counters, log } = run;
  run.start({ crawlDb: args.crawlDb });
  const print = args.print ?? ((t: string) => log.info(t));
  const batchSize = ctx.conf.getInt('storage.batch.size');
  const db = await ctx.storage.openCrawlDb(args.crawlDb);
  try {
    await requireExisting(db, 'CrawlDb', args.crawlDb);
    if (args.stats) {
      const stats = await computeStats(db, { sort: args.sort, batchSize });
      counters.urls = stats.total;
      if (args.json) await print(JSON.stringify(statsToJson(args.crawlDb, stats), null, 2) + '\n');
      else await print(formatStats(args.crawlDb, stats).join('\n') + '\n');
    }
    if (args.url !== undefined) {
      const datum = await db.get(args.url);
      counters.found = datum ? 1 : 0;
      if (args.json) await print(JSON.stringify({ url: args.url, datum: datum ? { ...datum, signature: datum.signature ? Buffer.from(datum.signature).toString('hex') : null } : null }) + '\n');
      else await print(`URL: ${args.url}\n${datum ? datumToString(datum) : 'not found'}\n`);
    }
    if (args.dump !== undefined) {
      log.info(`CrawlDb dump: starting, db: ${args.crawlDb}`);
      counters.dumped = await dumpCrawlDb(db, args.dump, ctx.storage, { format: args.format, status: args.status, regex: args.regex, retry: args.retry, batchSize, signal: run.signal });
      log.info(`CrawlDb dump: done (${counters.dumped} records)`);
    }
    if (args.topN !== undefined) {
      if (!args.topNOut) throw new NutchError('NUTCH_USAGE', '-topN needs an output directory.');
      log.info(`CrawlDb topN: starting (topN=${args.topN}, min=${args.min ?? 0})`);
      counters.topN = await topNCrawlDb(db, args.topN, args.topNOut, args.min ?? 0, { batchSize, signal: run.signal });
      log.info('CrawlDb topN: done');
    }
  } finally {
    await db.close();
  }
  if (run.stopping) run.count('stopped'); // a dump or topN cut short by a polite stop
  return run.finish();
}
