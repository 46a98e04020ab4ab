/**
 * The clean stage, as Nutch's CleaningJob: scans the CrawlDb and sends a delete to every
 * IndexWriter for each page that is gone or a duplicate, then commits (unless noCommit).
 */
import { dirname, resolve } from 'node:path';
import { CrawlStatus } from '../../model/crawl-datum.js';
import type { NutchContext } from '../context.js';
import type { Counters, StageOptions } from '../progress.js';
import { StageRun } from '../stage-run.js';
import { openIndexWriters } from '../index/open-index-writers.js';
import { IndexActions } from '../index/index-actions.js';
import { openExistingCrawlDb } from '../existing-stores.js';

export interface CleanArgs {
  crawlDb: string;
  noCommit?: boolean;
  /** Where embedded writers store (`<crawl>/index`); default the CrawlDb's parent. */
  crawlDir?: string;
}

export async function clean(ctx: NutchContext, args: CleanArgs, opts: StageOptions = {}): Promise<Counters> {
  const run = new StageRun(ctx, 'clean', opts);
  run.start({ crawlDb: args.crawlDb });
  const crawlDb = await openExistingCrawlDb(ctx, args.crawlDb);
  const batchSize = Math.max(1, ctx.conf.getInt('storage.batch.size', 1000));
  let actions: IndexActions | null = null;
  try {
    const writers = await openIndexWriters(ctx, { crawlDir: args.crawlDir ?? dirname(resolve(args.crawlDb)) });
    actions = new IndexActions(writers, ctx.log);
    let seen = 0;
    for await (const { url, value } of crawlDb.scan({ batchSize })) {
      if (value.status === CrawlStatus.STATUS_DB_GONE || value.status === CrawlStatus.STATUS_DB_DUPLICATE) {
        await actions.delete(url, 'Deleted documents');
      }
      if (++seen % batchSize === 0) {
        run.progress(seen, undefined, actions.counters);
        if (run.stopping) break;
      }
    }
    await actions.finish(!args.noCommit);
  } catch (err) {
    await actions?.fail();
    throw err;
  } finally {
    await crawlDb.close();
  }
  Object.assign(run.counters, { 'Deleted documents': 0, ...actions.counters });
  return run.finish();
}
