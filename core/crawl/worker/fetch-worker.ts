/**
 * A long-running fetch worker (`nutch worker`, DESIGN §5.1): takes the fetch partitions of every
 * generated segment under a segments directory as they appear, whoever generated them, until its
 * signal is aborted (SIGINT/SIGTERM: a polite stop, the partition in hand is given back). Segments are
 * worked oldest first; one whose partitions are all done or failed is left to the crawl that made it.
 * Nutch on Hadoop has no such process — YARN starts map tasks; StormCrawler's spouts are the closest.
 */
import type { NutchContext } from '../context.js';
import { count, type Counters, type StageOptions } from '../progress.js';
import type { FetchArgs } from '../fetch/fetcher.js';
import { sleep } from '../abortable-sleep.js';

export interface FetchWorkerArgs {
  /** The segments directory (`crawl/segments`). */
  segmentsDir: string;
  threads?: number;
  /** The fetch to run on a segment (the fetch stage, with inline parse when fetcher.parse is set). */
  fetch(ctx: NutchContext, args: FetchArgs, opts: StageOptions): Promise<Counters>;
  /** Stop once no segment has work for this long (ms); default: never (until the signal). */
  idleExitMs?: number;
}

export async function fetchWorker(ctx: NutchContext, args: FetchWorkerArgs, opts: StageOptions = {}): Promise<Counters> {
  const log = ctx.log.child({ stage: 'worker' });
  const counters: Counters = {};
  const pollMs = ctx.conf.getInt('fetcher.partition.poll', 1000);
  let idleSince = Date.now();
  log.info(`worker started on ${args.segmentsDir}: taking fetch partitions of generated segments until stopped`);
  while (!opts.signal?.aborted) {
    const segment = await nextSegmentWithWork(ctx, args.segmentsDir);
    if (segment) {
      count(counters, 'segments');
      const c = await args.fetch(ctx, { segment, threads: args.threads }, opts);
      for (const [k, v] of Object.entries(c)) if (typeof v === 'number') counters[k] = (counters[k] ?? 0) + v;
      idleSince = Date.now();
      continue;
    }
    if (args.idleExitMs !== undefined && Date.now() - idleSince >= args.idleExitMs) break;
    await sleep(pollMs, opts.signal);
  }
  log.info(`worker stopped: ${counters.segments ?? 0} segment(s) worked on`, counters);
  return counters;
}

/** The oldest segment whose crawl_generate is complete and that has a partition pending or expired. */
async function nextSegmentWithWork(ctx: NutchContext, segmentsDir: string): Promise<string | null> {
  for (const path of await ctx.storage.listSegments(segmentsDir)) {
    const seg = await ctx.storage.openSegment(path);
    try {
      if (!(await seg.isComplete('crawl_generate')) || (await seg.isComplete('crawl_fetch'))) continue;
      const now = Date.now();
      const status = await seg.fetchPartitions().status();
      if (status.some((p) => p.state === 'pending' || (p.state === 'running' && (p.leaseExpires ?? 0) <= now))) return path;
    } finally {
      await seg.close();
    }
  }
  return null;
}
