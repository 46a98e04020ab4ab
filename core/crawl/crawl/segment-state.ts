/**
 * How far the crawl loop got with a segment, read through the storage interfaces only (segment
 * metadata, part completion markers and the CrawlDb), so it holds on every engine. The loop uses it to
 * finish the segments a stopped (or killed) crawl left behind instead of generating new ones with the
 * same URLs, and to never end with a merged segment that was not inverted, deduplicated or indexed.
 *
 * The loop marks each segment it generates `nutch.crawl.state=open` (written before generate publishes
 * it) and `done` once the round's last stage (dedup, or clean with -i) has completed. An open segment's
 * first unfinished stage says what is left, as a round's stages run in order: fetch and parse leave
 * `_SUCCESS` on their parts when they complete; updatedb leaves no marker (as Nutch's), so whether a
 * segment's crawl_fetch was merged is read from the CrawlDb: updatedb always moves a fetched URL's
 * fetch time past the fetch (the schedule adds the interval, a retry a day, a gone page 1.5 × the
 * maximum interval), while an unmerged URL keeps the fetch time that made generate select it, which is
 * before the fetch. A merged open segment resumes at invertlinks: invertlinks, dedup, index and clean
 * are idempotent (distinct inlinks, duplicate flags, documents replaced by URL), so running them again
 * after a kill in the middle of one costs time, never data.
 */
import type { NutchContext } from '../context.js';
import type { Segment, SegmentPartName } from '../../storage/interfaces.js';
import { CrawlStatus } from '../../model/crawl-datum.js';

const PARSE_PARTS: readonly SegmentPartName[] = ['parse_text', 'parse_data', 'crawl_parse'];
/** crawl_fetch records compared with the CrawlDb; updatedb commits all or nothing, so a few suffice. */
const SAMPLE = 20;

/** The first stage a segment still needs, or 'done'. */
export type SegmentResumePoint = 'fetch' | 'parse' | 'updatedb' | 'invertlinks' | 'done';

/** The segment metadata key of the crawl loop's mark, and its values. */
export const CRAWL_STATE_KEY = 'nutch.crawl.state';
export const CRAWL_STATE = { open: 'open', done: 'done' } as const;

export interface SegmentState {
  path: string;
  name: string;
  /** False when crawl_generate is missing or incomplete: not a segment the loop can finish. */
  generated: boolean;
  fetched: boolean;
  parsed: boolean;
  /** Some parse part exists (complete or not): a parse must replace it (-force). */
  hasParseOutput: boolean;
  /** The crawl loop's mark (CRAWL_STATE_KEY): 'open', 'done', or undefined for a segment it did not generate. */
  crawlState: string | undefined;
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
      crawlState: (await segment.readMeta())[CRAWL_STATE_KEY],
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

/**
 * Where the loop picks a segment up: the first of its stages that has not completed. A segment the loop
 * marked open and that is merged into the CrawlDb still needs the rest of its round (invertlinks on);
 * one it did not generate (made by hand, or by a crawl before segments had marks) is finished only up
 * to updatedb, as before, since whether its links were inverted or it was indexed is not recorded.
 */
export async function resumePoint(ctx: NutchContext, crawlDbPath: string, state: SegmentState): Promise<SegmentResumePoint> {
  if (!state.generated || state.crawlState === CRAWL_STATE.done) return 'done';
  if (!state.fetched) return 'fetch';
  if (!state.parsed) return 'parse';
  if (!(await isMergedIntoCrawlDb(ctx, crawlDbPath, state.path))) return 'updatedb';
  return state.crawlState === CRAWL_STATE.open ? 'invertlinks' : 'done';
}

export interface UnfinishedSegment {
  segment: string;
  from: Exclude<SegmentResumePoint, 'done'>;
}

/**
 * The segments a stopped crawl left unfinished, oldest first, each with the stage to resume at: every
 * segment the loop marked open, and the newest segment when it has no mark (generated by hand and not
 * yet fetched, parsed or merged).
 */
export async function unfinishedSegments(ctx: NutchContext, crawlDbPath: string, segmentsDir: string): Promise<UnfinishedSegment[]> {
  const segments = await ctx.storage.listSegments(segmentsDir);
  const out: UnfinishedSegment[] = [];
  for (let i = 0; i < segments.length; i++) {
    const newest = i === segments.length - 1;
    // the mark alone first: one read per segment of a long crawl, the full state only for candidates
    const mark = await crawlStateOf(ctx, segments[i]!);
    if (mark !== CRAWL_STATE.open && !(newest && mark === undefined)) continue;
    const state = await readSegmentState(ctx, segments[i]!);
    if (!state.generated) {
      ctx.log.warn(`Segment ${state.path} has no complete crawl_generate; not resumed (remove it if it is left from a failed generate)`, { segment: state.path });
      continue;
    }
    const from = await resumePoint(ctx, crawlDbPath, state);
    if (from !== 'done') out.push({ segment: state.path, from });
  }
  return out;
}

async function crawlStateOf(ctx: NutchContext, path: string): Promise<string | undefined> {
  const segment = await ctx.storage.openSegment(path);
  try {
    return (await segment.readMeta())[CRAWL_STATE_KEY];
  } finally {
    await segment.close();
  }
}

/**
 * Marks segments whose round has completed, so a later crawl never resumes them. A segment removed
 * while its round ran (by hand) has nothing left to resume: a warning, not a failed crawl.
 */
export async function markRoundDone(ctx: NutchContext, segments: readonly string[]): Promise<void> {
  for (const path of segments) {
    let segment: Segment;
    try {
      segment = await ctx.storage.openSegment(path);
    } catch (err) {
      if ((err as { code?: string }).code !== 'NUTCH_STORAGE_NOT_FOUND') throw err;
      ctx.log.warn(`Segment ${path} is gone; its round ended but there is nothing to mark done`, { segment: path });
      continue;
    }
    try {
      await segment.writeMeta({ [CRAWL_STATE_KEY]: CRAWL_STATE.done });
    } finally {
      await segment.close();
    }
  }
}

/** Why a segment resumes at each point, as the crawl loop's warning says it. */
export const RESUME_REASON: Record<SegmentResumePoint, string> = {
  fetch: 'crawl_fetch has no _SUCCESS',
  parse: 'fetched, but its parse parts have no _SUCCESS',
  updatedb: 'fetched and parsed, but not merged into the CrawlDb',
  invertlinks: 'merged into the CrawlDb, but its round did not end: invertlinks, dedup or index may be missing',
  done: '',
};

/** The stages a segment resumed at `from` still runs, in order (index and clean with `index`). */
export function resumeStages(from: SegmentResumePoint, index: boolean): string {
  const rest = ['invertlinks', 'dedup', ...(index ? ['index', 'clean'] : [])];
  if (from === 'fetch') return ['resumed fetch', 'parse', 'updatedb', ...rest].join(', ');
  if (from === 'parse') return ['parse', 'updatedb', ...rest].join(', ');
  if (from === 'updatedb') return ['updatedb', ...rest].join(', ');
  return rest.join(', ');
}
