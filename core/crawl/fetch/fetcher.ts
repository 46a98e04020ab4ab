/**
 * The fetch stage (Nutch's Fetcher): a QueueFeeder fills per-host FetchItemQueues from the
 * crawl_generate partitions this process claims (partition-claims.ts); a dispatcher starts up to
 * `threads` concurrent fetches, each from a queue whose politeness delay has passed; results go to
 * crawl_fetch and content of their partition in batches, fenced by the claim. A partition is finished
 * and completed as soon as its last item is written. Started on several machines at once, the
 * processes share the segment's partitions and each returns when all are done or failed. A killed
 * fetch resumes on the same segment, skipping the URLs crawl_fetch already holds. The first abort is a
 * polite stop: nothing new starts, in-flight fetches finish, what is done is committed, and the
 * claimed partitions are given back.
 */
import { NutchError } from '../../errors.js';
import { checkAgentName, type NutchContext } from '../context.js';
import type { Content } from '../../model/content.js';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import type { PartitionClaim, Segment } from '../../storage/interfaces.js';
import type { Counters, StageOptions } from '../progress.js';
import { StageRun } from '../stage-run.js';
import { partState } from '../segment-parts.js';
import { FetchJob } from './fetch-job.js';

/** What the inline parse hook learns about a fetched page (fetcher.parse). */
export interface FetchParseInfo {
  url: string;
  segment: Segment;
  partition: number;
  /** The claim the page was fetched under: parse output of the partition is fenced by it too. */
  claim?: PartitionClaim;
}

export interface FetchArgs {
  /** Path of the segment directory. */
  segment: string;
  /** Concurrent fetches (default fetcher.threads.fetch). */
  threads?: number;
  /**
   * Inline parse (fetcher.parse = true): called for every successfully fetched content; wired by the
   * parse stage to the parse worker pool, which writes the parse output itself.
   */
  parse?: (content: Content, datum: CrawlDatum, info: FetchParseInfo) => Promise<void>;
  /** With `parse`: a partition's fetch ended (complete: finished; else stopped, lost or released). */
  onPartitionEnd?: (segment: Segment, partition: number, complete: boolean) => Promise<void>;
  /**
   * With `parse`: the fetch is over (done, stopped or failed) and is about to close the segment; what
   * the inline parse still holds open on it is closed now, never after the segment is.
   */
  onSegmentEnd?: (segment: Segment) => Promise<void>;
  /** This process's id in partition claims (default host:pid:random). */
  worker?: string;
}

export async function fetch(ctx: NutchContext, args: FetchArgs, opts: StageOptions = {}): Promise<Counters> {
  checkAgentName(ctx.conf);
  const run = new StageRun(ctx, 'fetch', opts);
  const segment = await ctx.storage.openSegment(args.segment);
  try {
    await checkFetchable(segment, args.segment);
    const threads = Math.max(1, args.threads ?? ctx.conf.getInt('fetcher.threads.fetch', 10));
    run.start({ segment: args.segment, threads });
    const job = await FetchJob.create(ctx, run, segment, args, threads);
    try {
      await job.fetchAll();
    } finally {
      await args.onSegmentEnd?.(segment);
    }
    const { pages } = job;
    const s = run.elapsed / 1000;
    run.log.info(`fetch of ${segment.name} done in ${s.toFixed(1)} s: ${pages} pages (${(pages / Math.max(0.001, s)).toFixed(1)} pages/s)`, run.counters);
    return run.finish();
  } finally {
    await segment.close();
  }
}

/** As Nutch: a segment is fetched once, after generate. */
async function checkFetchable(segment: Segment, path: string): Promise<void> {
  if (!(await segment.hasPart('crawl_generate'))) {
    throw new NutchError('NUTCH_SEGMENT_NOT_GENERATED', `Segment ${path} has no crawl_generate; run nutch generate first.`, { path });
  }
  if ((await partState(segment, 'crawl_fetch')) === 'complete') {
    throw new NutchError('NUTCH_SEGMENT_ALREADY_FETCHED', `Segment already fetched! (${path}/crawl_fetch has _SUCCESS)`, { path });
  }
}
