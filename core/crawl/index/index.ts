/**
 * The index stage (Nutch's IndexingJob): opens the IndexWriters, the CrawlDb and the LinkDb, and
 * indexes each complete segment (segment-indexer.ts joins its parts, decides per URL and builds the
 * documents) into every configured IndexWriter. An incomplete segment is skipped with a warning naming
 * the part. A writer failure rolls back every writer that can and fails naming the writer.
 */
import { dirname, resolve } from 'node:path';
import type { CrawlDb, LinkDb, Segment, SegmentPartName } from '../../storage/interfaces.js';
import type { NutchContext } from '../context.js';
import type { Counters, StageOptions } from '../progress.js';
import { StageRun } from '../stage-run.js';
import { openExistingCrawlDb } from '../existing-stores.js';
import { partState } from '../segment-parts.js';
import { normalizeThenFilter } from '../../extension-points/normalize-then-filter.js';
import { SegmentIndexer } from './segment-indexer.js';
import { openIndexWriters } from './open-index-writers.js';
import { IndexActions } from './index-actions.js';

export interface IndexArgs {
  crawlDb: string;
  linkDb?: string;
  segments: string[];
  /** -deleteGone: sets indexer.delete. */
  deleteGone?: boolean;
  /** -noCommit: writers are closed without commit(). */
  noCommit?: boolean;
  /** -filter / -normalize: URL filters and the `indexer` normalizer scope on each URL. */
  filter?: boolean;
  normalize?: boolean;
  addBinaryContent?: boolean;
  /** Where embedded writers store (`<crawl>/index`); default the CrawlDb's parent. */
  crawlDir?: string;
}

const REQUIRED_PARTS: SegmentPartName[] = ['crawl_fetch', 'parse_data', 'parse_text'];

export async function index(ctx: NutchContext, args: IndexArgs, opts: StageOptions = {}): Promise<Counters> {
  const run = new StageRun(ctx, 'index', opts);
  const { conf } = ctx;
  run.start({ crawlDb: args.crawlDb, linkDb: args.linkDb, segments: args.segments });

  // Every extension the stage uses is created before the first record is read (DESIGN §3).
  const indexingFilters = await ctx.extensions.indexingFilters();
  const scoringFilters = await ctx.extensions.scoringFilters();
  const normalizers = args.normalize ? await ctx.extensions.urlNormalizers('indexer') : null;
  const urlFilters = args.filter ? await ctx.extensions.urlFilters() : null;

  const writers = await openIndexWriters(ctx, { crawlDir: args.crawlDir ?? dirname(resolve(args.crawlDb)) });
  const actions = new IndexActions(writers, ctx.log);
  let crawlDb: CrawlDb | null = null;
  let linkDb: LinkDb | null = null;
  try {
    crawlDb = await openExistingCrawlDb(ctx, args.crawlDb);
    linkDb = args.linkDb ? await openLinkDbIfAny(ctx, run, args.linkDb) : null;
    const indexer = new SegmentIndexer(run, crawlDb, linkDb, actions, {
      flags: {
        delete: args.deleteGone === true || conf.getBoolean('indexer.delete', false),
        deleteRobotsNoIndex: conf.getBoolean('indexer.delete.robots.noindex', false),
        skipNotModified: conf.getBoolean('indexer.skip.notmodified', false),
      },
      deleteSkipped: conf.getBoolean('indexer.delete.skipped.by.indexingfilter', false),
      base64: conf.getBoolean('indexer.binarycontent.as.base64', false),
      addBinaryContent: !!args.addBinaryContent,
      batchSize: Math.max(1, conf.getInt('storage.batch.size', 1000)),
      indexingFilters, scoringFilters,
      rewrite: normalizers || urlFilters ? normalizeThenFilter(normalizers, urlFilters) : null,
    });
    for (const segPath of args.segments) {
      if (run.stopping) break;
      const segment = await ctx.storage.openSegment(segPath);
      try {
        if (await isComplete(run, segment, args.addBinaryContent ? [...REQUIRED_PARTS, 'content'] : REQUIRED_PARTS)) await indexer.indexSegment(segment);
      } finally {
        await segment.close();
      }
    }
    await actions.finish(!args.noCommit);
  } catch (err) {
    await actions.fail();
    throw err;
  } finally {
    await crawlDb?.close();
    await linkDb?.close();
  }
  Object.assign(run.counters, actions.counters);
  return run.finish();
}

/** As Nutch, a missing LinkDb is a warning: the pages are indexed without inlinks. */
async function openLinkDbIfAny(ctx: NutchContext, run: StageRun, path: string): Promise<LinkDb | null> {
  const linkDb = await ctx.storage.openLinkDb(path);
  if (await linkDb.exists()) return linkDb;
  run.log.warn(`Ignoring linkDb for indexing, no linkDb found in path: ${path}`, { file: path });
  await linkDb.close();
  return null;
}

/** An incomplete segment is skipped with a warning naming its missing or unfinished parts. */
async function isComplete(run: StageRun, segment: Segment, parts: SegmentPartName[]): Promise<boolean> {
  const incomplete: string[] = [];
  for (const part of parts) if ((await partState(segment, part)) !== 'complete') incomplete.push(`${segment.path}/${part}`);
  if (incomplete.length === 0) return true;
  run.log.warn(`Skipping segment ${segment.path}: ${incomplete.join(', ')} ${incomplete.length === 1 ? 'is' : 'are'} missing or incomplete (no _SUCCESS).`, { file: incomplete[0] });
  run.count('skipped (incomplete segment)');
  run.emit({ type: 'skip', stage: 'index', reason: 'incomplete segment', culprit: incomplete[0] });
  return false;
}
