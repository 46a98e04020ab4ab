/**
 * How far the crawl loop got with a segment, read through the storage interfaces only (part
 * completion markers and the CrawlDb), so it holds on every engine. The loop uses it to finish a
 * segment a stopped crawl left behind instead of generating a new one with the same URLs.
 *
 * A round's stages run in order (fetch, parse, updatedb, invertlinks, …), so the first unfinished
 * stage says what is left: fetch and parse leave `_SUCCESS` on their parts when they complete;
 * updatedb leaves no marker (as Nutch's), so whether a segment's crawl_fetch was merged is read from
 * the CrawlDb: updatedb always moves a fetched URL's fetch time past the fetch (the schedule adds
 * the interval, a retry a day, a gone page 1.5 × the maximum interval), while an unmerged URL keeps
 * the fetch time that made generate select it, which is before the fetch.
 */
import type { NutchContext } from '../context.js';
import type { Segment, SegmentPartName } from '../../storage/interfaces.js';
import { CrawlStatus } from '../../model/crawl-datum.js';

const PARSE_PARTS: readonly SegmentPartName[] = ['parse_text', 'parse_data', 'crawl_parse'];
/** crawl_fetch records compared with the CrawlDb; updatedb commits all or nothing, so a few suffice. */
const SAMPLE = 20;

/** The first stage a segment still needs, or 'done'. */
export type SegmentResumePoint = 'fetch' | 'parse' | 'updatedb' | 'done';

export interface SegmentState {
  path: string;
  name: string;
  /** False when crawl_generate is missing or incomplete: not a segment the loop can finish. */
  generated: boolean;
  fetched: boolean;
  parsed: boolean;
  /** Some parse part exists (complete or not): a parse must replace it (-force). */
  hasParseOutput: boolean;
}

export async function readSegmentState(ctx: NutchContext, segmentPath: string): Promise<SegmentState> {
  const segment = await ctx.storage.openSegment(segmentPath);
  try {
    const complete = (part: SegmentPartName) => segment.isComplete(part);
    let parsed = true;
    let hasParseOutput = false;
    for (const part of PARSE_PARTS) {
      if (!(await complete(part))) parsed = false;
      if (await segment.hasPart(part)) hasParseOutput = true;
    }
    return {
      path: segmentPath,
      name: segment.name,
      generated: await complete('crawl_generate'),
      fetched: await complete('crawl_fetch'),
      parsed,
      hasParseOutput,
    };
  } finally {
    await segment.close();
  }
}

/**
 * True when updatedb has merged the segment's crawl_fetch into the CrawlDb: some sampled fetched URL
 * has a CrawlDb fetch time later than its fetch. Also true when no sampled URL is in the CrawlDb at
 * all (nothing to compare; merging again could only double scores).
 */
export async function isMergedIntoCrawlDb(ctx: NutchContext, crawlDbPath: string, segmentPath: string): Promise<boolean> {
  const sample = new Map<string, number>();
  const segment: Segment = await ctx.storage.openSegment(segmentPath);
  try {
    for await (const { url, value } of segment.read('crawl_fetch', { batchSize: SAMPLE })) {
      if (value.status === CrawlStatus.STATUS_LINKED) continue;
      sample.set(url, value.fetchTime);
      if (sample.size >= SAMPLE) break;
    }
  } finally {
    await segment.close();
  }
  if (sample.size === 0) return true;
  const db = await ctx.storage.openCrawlDb(crawlDbPath);
  try {
    const known = await db.getMany([...sample.keys()]);
    if (known.size === 0) return true;
    for (const [url, datum] of known) if (datum.fetchTime > sample.get(url)!) return true;
    return false;
  } finally {
    await db.close();
  }
}

/** Where the loop picks a segment up: the first of its stages that has not completed. */
export async function resumePoint(ctx: NutchContext, crawlDbPath: string, state: SegmentState): Promise<SegmentResumePoint> {
  if (!state.generated) return 'done';
  if (!state.fetched) return 'fetch';
  if (!state.parsed) return 'parse';
  return (await isMergedIntoCrawlDb(ctx, crawlDbPath, state.path)) ? 'done' : 'updatedb';
}
