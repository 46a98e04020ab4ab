/**
 * updatedb (`nutch updatedb <crawldb> (-dir <segments> | <seg> ...)`), as Nutch's CrawlDb.update:
 * merges the segments' crawl_fetch and crawl_parse into the CrawlDb through CrawlDbReducer.
 *
 * How: the segment datums are read in URL order — each part sorted by its engine (Segment.readSorted)
 * and the parts merged, or, with -normalize / -filter (which change URLs) or more than
 * MAX_SORTED_PARTS parts, staged into an external sort in the process (bounded memory) — then
 * merge-joined with a scan of the committed CrawlDb (both in URL order), one URL group at a time.
 * Every change goes into ONE CrawlDbUpdate, committed at the end: a crash or an abort anywhere leaves
 * the previous CrawlDb as it was, and the stage can simply be run again.
 */
import { CrawlStatus, hasDbStatus, statusName, type CrawlDatum } from '../../model/crawl-datum.js';
import type { NutchContext } from '../context.js';
import type { CrawlDb, CrawlDbUpdate, Keyed, SegmentPartName } from '../../storage/interfaces.js';
import type { Counters, StageOptions } from '../progress.js';
import { StageRun, formatCounters } from '../stage-run.js';
import { selectSegmentParts, type SegmentInput } from '../segment-parts.js';
import { normalizeThenFilter, type UrlRewrite } from '../../extension-points/normalize-then-filter.js';
import { reduceCrawlDatum, type CrawlDbReducerEnv } from './crawl-db-reducer.js';
import { CrawlDbValues } from './crawl-db-values.js';
import { DROP_OLD, CrawlDatumSort } from './crawl-datum-sort.js';
import { compareUrls } from '../../storage/url-order.js';
import { yieldToEventLoop } from '../../storage/yield.js';

export interface UpdateDbArgs {
  crawlDb: string;
  /** Segment directories (the CLI expands -dir). */
  segments: string[];
  /** -noAdditions: only update URLs already in the CrawlDb. */
  noAdditions?: boolean;
  /** -normalize: normalise every URL (scope crawldb), CrawlDb entries included. */
  normalize?: boolean;
  /** -filter: filter every URL, CrawlDb entries included. */
  filter?: boolean;
  /** -force: break the CrawlDb lock. */
  force?: boolean;
}

const UPDATE_PARTS: { required: SegmentPartName[]; optional: SegmentPartName[] } = { required: ['crawl_fetch'], optional: ['crawl_parse'] };
/**
 * Segment parts read sorted by their engine and merged here (each holds a sorted read open: on
 * PostgreSQL a connection, of the few a process has); beyond that, the stage sorts them itself.
 */
const MAX_SORTED_PARTS = 4;

type StagedDatum = { url: string; datum: CrawlDatum };

/** What the merge steps share. */
interface UpdateEnv {
  run: StageRun;
  batchSize: number;
  /** -normalize / -filter; null when neither. */
  rewrite: UrlRewrite | null;
  reducer: CrawlDbReducerEnv;
  maxLinks: number;
  /** Does the scoring chain care about entries without new data (orphanedScore)? */
  orphanAware: boolean;
  /** CrawlDbFilter's purges of old entries (checked before any URL work, as NUTCH-1101). */
  purged(d: CrawlDatum): boolean;
  isPurgeable(d: CrawlDatum): boolean;
}

export async function updatedb(ctx: NutchContext, args: UpdateDbArgs, opts: StageOptions = {}): Promise<Counters> {
  const run = new StageRun(ctx, 'updatedb', opts, { segments: 0, segments_skipped: 0, urls_filtered: 0, outlinks: 0, urls_added: 0 });
  const { conf } = ctx;
  const additionsAllowed = !args.noAdditions && conf.getBoolean('db.update.additions.allowed', true);
  const purge404 = conf.getBoolean('db.update.purge.404');
  const purgeOrphans = conf.getBoolean('db.update.purge.orphans');
  run.start({ crawlDb: args.crawlDb, segments: args.segments });
  run.log.info(`CrawlDb update: db: ${args.crawlDb}; segments: ${args.segments.join(', ')}`);
  run.log.info(`CrawlDb update: additions allowed: ${additionsAllowed}; URL normalizing: ${!!args.normalize}; URL filtering: ${!!args.filter}; 404 purging: ${purge404}; orphan purging: ${purgeOrphans}`);
  const finish = () => run.finish((ms) => `CrawlDb update: finished, elapsed: ${ms} ms; ${formatCounters(run.counters)}`);

  // Every extension the stage uses is instantiated before the first record is read.
  const normalizers = args.normalize ? await ctx.extensions.urlNormalizers('crawldb') : null;
  const filters = args.filter ? await ctx.extensions.urlFilters() : null;
  const scoring = await ctx.extensions.scoringFilters();
  const isPurgeable = (d: CrawlDatum) => (purge404 && d.status === CrawlStatus.STATUS_DB_GONE) || (purgeOrphans && d.status === CrawlStatus.STATUS_DB_ORPHAN);
  const env: UpdateEnv = {
    run,
    batchSize: Math.max(1, conf.getInt('storage.batch.size')),
    rewrite: normalizers || filters ? normalizeThenFilter(normalizers, filters) : null,
    reducer: {
      schedule: await ctx.extensions.fetchSchedule(), scoring, additionsAllowed, log: run.log,
      retryMax: conf.getInt('db.fetch.retry.max', 3),
      maxInterval: conf.getInt('db.fetch.interval.max'),
    },
    maxLinks: conf.getInt('db.update.max.inlinks', 10000),
    orphanAware: scoring.anyImplements('orphanedScore'),
    isPurgeable,
    purged(d) {
      if (!isPurgeable(d)) return false;
      run.count(d.status === CrawlStatus.STATUS_DB_GONE ? 'gone_records_removed' : 'orphan_records_removed');
      return true;
    },
  };

  const inputs = await selectSegmentParts(ctx, run, args.segments, UPDATE_PARTS);
  if (inputs.length === 0) {
    run.log.warn('CrawlDb update: no segment with a complete crawl_fetch; the CrawlDb is unchanged');
    return finish();
  }
  const db = await ctx.storage.openCrawlDb(args.crawlDb);
  const staging = new CrawlDatumSort();
  try {
    await run.inSession(() => db.beginUpdate({ force: args.force }), async (session) => {
      const partCount = inputs.reduce((n, i) => n + i.parts.length, 0);
      if (!env.rewrite && partCount <= MAX_SORTED_PARTS) {
        await mergeWithCrawlDb(env, db, session, sortedSegmentDatums(env, inputs));
        return;
      }
      await stageSegmentDatums(env, inputs, staging);
      run.checkAborted();
      if (env.rewrite) await stageRewrittenEntries(env, db, staging, env.rewrite);
      await mergeWithCrawlDb(env, db, session, staging.records());
    }, 'CrawlDb update: stopped; nothing was merged, the CrawlDb is unchanged');
  } finally {
    staging.close();
    for (const { segment } of inputs) await segment.close();
    await db.close();
  }
  return finish();
}

/** 1. Stage the segments' datums (normalised and filtered when asked, as CrawlDbFilter maps them). */
async function stageSegmentDatums({ run, batchSize, rewrite }: UpdateEnv, inputs: SegmentInput[], staging: CrawlDatumSort): Promise<void> {
  let staged = 0;
  for (const { segment, parts } of inputs) {
    for (const part of parts) {
      run.log.info(`CrawlDb update: reading ${segment.path}/${part}`);
      let batch: { url: string; datum: CrawlDatum }[] = [];
      for await (const rec of segment.read(part as 'crawl_fetch')) {
        const url = rewrite ? rewrite(rec.url) : rec.url;
        if (url === null) { run.count('urls_filtered'); continue; }
        if (rec.value.status === CrawlStatus.STATUS_LINKED) run.counters.outlinks!++;
        batch.push({ url, datum: rec.value });
        if (batch.length >= batchSize) {
          staging.add(batch);
          staged += batch.length;
          batch = [];
          run.checkAborted();
          run.progress(staged);
        }
      }
      staging.add(batch);
      staged += batch.length;
    }
    await segment.close();
  }
}

/**
 * 1'. Without -normalize / -filter: the parts read in URL order by their engine, merged; a URL's
 *     datums in the order staging would keep them (segments, then parts, as given; within a part,
 *     partition then insertion), so the reducer sees exactly what it sees after stageSegmentDatums.
 */
async function* sortedSegmentDatums({ run }: UpdateEnv, inputs: SegmentInput[]): AsyncGenerator<StagedDatum> {
  const streams: AsyncIterator<Keyed<CrawlDatum>>[] = [];
  for (const { segment, parts } of inputs) {
    for (const part of parts) {
      run.log.info(`CrawlDb update: reading ${segment.path}/${part}`);
      streams.push(segment.readSorted(part as 'crawl_fetch')[Symbol.asyncIterator]());
    }
  }
  try {
    const heads: (Keyed<CrawlDatum> | undefined)[] = [];
    for (const s of streams) heads.push((await s.next()).value as Keyed<CrawlDatum> | undefined);
    for (;;) {
      let best = -1;
      for (let i = 0; i < heads.length; i++) {
        const h = heads[i];
        // the lowest URL; on a tie the earlier stream, as the stable staging sort keeps them
        if (h && (best < 0 || compareUrls(h.url, heads[best]!.url) < 0)) best = i;
      }
      if (best < 0) return;
      const { url, value } = heads[best]!;
      if (value.status === CrawlStatus.STATUS_LINKED) run.counters.outlinks!++;
      yield { url, datum: value };
      heads[best] = (await streams[best]!.next()).value as Keyed<CrawlDatum> | undefined;
    }
  } finally {
    for (const s of streams) await s.return?.();
  }
}

/**
 * 2. -normalize / -filter also apply to the CrawlDb's own entries: a renamed or rejected entry is
 *    dropped under its old key (and a renamed one staged under its new key).
 */
async function stageRewrittenEntries({ run, batchSize, isPurgeable }: UpdateEnv, db: CrawlDb, staging: CrawlDatumSort, rewrite: UrlRewrite): Promise<void> {
  let batch: { url: string; datum: CrawlDatum }[] = [];
  for await (const { url, value } of db.scan({ batchSize })) {
    if (isPurgeable(value)) continue; // purged in the merge
    const to = rewrite(url);
    if (to === url) continue;
    batch.push({ url, datum: { ...value, status: DROP_OLD } });
    if (to === null) run.count('urls_filtered');
    else batch.push({ url: to, datum: value });
    if (batch.length >= batchSize) { staging.add(batch); batch = []; await yieldToEventLoop(); }
  }
  staging.add(batch);
}

/** 3. Merge-join the sorted segment datums with the CrawlDb, URL by URL (CrawlDbReducer). */
async function mergeWithCrawlDb(env: UpdateEnv, db: CrawlDb, session: CrawlDbUpdate, staged: Iterator<StagedDatum> | AsyncIterator<StagedDatum>): Promise<void> {
  const { run, batchSize, purged } = env;
  const out: Keyed<CrawlDatum>[] = [];
  const dels: string[] = [];
  let merged = 0;
  const flush = async () => {
    await session.put(out);
    await session.delete(dels);
    merged += out.length + dels.length;
    out.length = 0;
    dels.length = 0;
    run.checkAborted();
    run.progress(merged);
  };
  const dbIter = db.scan({ batchSize })[Symbol.asyncIterator]();
  try {
    let dbHead = (await dbIter.next()).value as Keyed<CrawlDatum> | undefined;
    let stHead = (await staged.next()).value as StagedDatum | undefined;
    let steps = 0;
    while (dbHead || stHead) {
      const cmp = !stHead ? -1 : !dbHead ? 1 : compareUrls(dbHead.url, stHead.url);
      if (cmp < 0) {
        // A CrawlDb entry without new data.
        const { url, value } = dbHead!;
        if (purged(value)) dels.push(url);
        else if (env.orphanAware) {
          const kept = reduceCrawlDatum(url, { old: value, fetch: null, linked: [], signature: null, parseMeta: null }, env.reducer)!;
          if (!sameDatum(kept, value)) out.push({ url, value: kept });
          run.count(statusName(kept.status));
        } else run.count(statusName(value.status));
        dbHead = (await dbIter.next()).value;
      } else {
        const url = stHead!.url;
        const values = new CrawlDbValues(env.maxLinks);
        let dropOld = false;
        while (stHead && stHead.url === url) {
          if (stHead.datum.status === DROP_OLD) dropOld = true;
          else if (!(hasDbStatus(stHead.datum) && purged(stHead.datum))) values.add(stHead.datum);
          stHead = (await staged.next()).value as StagedDatum | undefined;
        }
        const inDb = cmp === 0;
        if (inDb) {
          if (!dropOld && !purged(dbHead!.value)) values.add(dbHead!.value);
          dbHead = (await dbIter.next()).value;
        }
        if (values.unknown > 0) run.log.warn(`Unknown status in ${values.unknown} datum(s) of ${url.slice(0, 300)}; ignored`);
        const wasKnown = values.old !== null;
        const result = reduceCrawlDatum(url, values.input(), env.reducer);
        if (result) {
          out.push({ url, value: result });
          run.count(statusName(result.status));
          if (!wasKnown) run.count('urls_added');
        } else if (inDb) dels.push(url);
      }
      if (out.length + dels.length >= batchSize) await flush();
      else if (++steps % 2000 === 0) await yieldToEventLoop();
    }
    await flush();
  } finally {
    await dbIter.return?.(); // a scan left early (an abort) frees what it holds
    await staged.return?.();
  }
  // The last report before the commit (crash tests kill here).
  run.progress(merged, merged);
}

function sameDatum(a: CrawlDatum, b: CrawlDatum): boolean {
  if (a.status !== b.status || a.fetchTime !== b.fetchTime || a.retries !== b.retries || a.fetchInterval !== b.fetchInterval
    || a.score !== b.score || a.modifiedTime !== b.modifiedTime) return false;
  const sa = a.signature;
  const sb = b.signature;
  if ((sa === null) !== (sb === null)) return false;
  if (sa && sb && (sa.length !== sb.length || sa.some((x, i) => x !== sb[i]))) return false;
  return JSON.stringify(a.metaData) === JSON.stringify(b.metaData);
}

