/**
 * updatedb (`nutch updatedb <crawldb> (-dir <segments> | <seg> ...)`), as Nutch's CrawlDb.update:
 * merges the segments' crawl_fetch and crawl_parse into the CrawlDb through CrawlDbReducer.
 *
 * How: the segment datums are staged into a temporary table sorted by URL (bounded memory), then
 * merge-joined with a scan of the committed CrawlDb (both in URL order), one URL group at a time.
 * Every change goes into ONE CrawlDbUpdate, committed at the end: a crash or an abort anywhere leaves
 * the previous CrawlDb as it was, and the stage can simply be run again.
 */
import { CrawlStatus, hasDbStatus, statusName, type CrawlDatum } from '../../model/crawl-datum.js';
import type { NutchContext } from '../context.js';
import type { CrawlDbUpdate, Keyed, SegmentPartName } from '../../storage/interfaces.js';
import type { ScoringFilter } from '../../extension-points/scoring-filter.js';
import { count, type Counters, type ProgressEvent, type StageOptions, isPoliteStop } from '../progress.js';
import { CrawlDbValues, reduceCrawlDatum, type CrawlDbReducerEnv } from './crawl-db-reducer.js';
import { DROP_OLD, StagingTable } from './staging-table.js';
import { compareUrls } from '../../storage/url-order.js';
import { selectSegmentParts } from './segment-parts.js';

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

export async function updatedb(ctx: NutchContext, args: UpdateDbArgs, opts: StageOptions = {}): Promise<Counters> {
  const started = Date.now();
  const counters: Counters = { segments: 0, segments_skipped: 0, urls_filtered: 0, outlinks: 0, urls_added: 0 };
  const emit = (e: ProgressEvent) => opts.onProgress?.(e);
  const log = ctx.log.child({ stage: 'updatedb' });
  const { conf } = ctx;
  const batchSize = Math.max(1, conf.getInt('storage.batch.size'));
  const additionsAllowed = !args.noAdditions && conf.getBoolean('db.update.additions.allowed', true);
  const purge404 = conf.getBoolean('db.update.purge.404');
  const purgeOrphans = conf.getBoolean('db.update.purge.orphans');
  const maxLinks = conf.getInt('db.update.max.inlinks', 10000);
  emit({ type: 'stage-start', stage: 'updatedb', args: { crawlDb: args.crawlDb, segments: args.segments } });
  log.info(`CrawlDb update: db: ${args.crawlDb}; segments: ${args.segments.join(', ')}`);
  log.info(`CrawlDb update: additions allowed: ${additionsAllowed}; URL normalizing: ${!!args.normalize}; URL filtering: ${!!args.filter}; 404 purging: ${purge404}; orphan purging: ${purgeOrphans}`);

  // Every extension the stage uses is instantiated before the first record is read.
  const normalizers = args.normalize ? await ctx.extensions.urlNormalizers('crawldb') : null;
  const filters = args.filter ? await ctx.extensions.urlFilters() : null;
  const scoring = await ctx.extensions.scoringFilters();
  const schedule = await ctx.extensions.fetchSchedule();
  const orphanAware = await anyScoringFilterHas(ctx, 'orphanedScore');
  const env: CrawlDbReducerEnv = {
    schedule, scoring, additionsAllowed, log,
    retryMax: conf.getInt('db.fetch.retry.max', 3),
    maxInterval: conf.getInt('db.fetch.interval.max'),
  };
  const rewrite = (url: string): string | null => {
    let out: string | null = url;
    if (normalizers) out = normalizers.normalize(out);
    if (out !== null && filters) out = filters.filter(out);
    return out;
  };
  /** CrawlDbFilter's purges of old entries (checked before any URL work, as NUTCH-1101). */
  const purged = (d: CrawlDatum): boolean => {
    if (purge404 && d.status === CrawlStatus.STATUS_DB_GONE) { count(counters, 'gone_records_removed'); return true; }
    if (purgeOrphans && d.status === CrawlStatus.STATUS_DB_ORPHAN) { count(counters, 'orphan_records_removed'); return true; }
    return false;
  };

  const inputs = await selectSegmentParts(ctx, 'updatedb', args.segments, UPDATE_PARTS, log, counters, emit);
  if (inputs.length === 0) {
    log.warn('CrawlDb update: no segment with a complete crawl_fetch; the CrawlDb is unchanged');
    return finish();
  }

  const db = await ctx.storage.openCrawlDb(args.crawlDb);
  const staging = new StagingTable();
  let session: CrawlDbUpdate | undefined;
  try {
    session = await db.beginUpdate({ force: args.force });
    // 1. Stage the segments' datums (normalised and filtered when asked, as CrawlDbFilter maps them).
    let staged = 0;
    for (const { segment, parts } of inputs) {
      for (const part of parts) {
        log.info(`CrawlDb update: reading ${segment.path}/${part}`);
        let batch: { url: string; datum: CrawlDatum }[] = [];
        for await (const rec of segment.read(part as 'crawl_fetch')) {
          const url = normalizers || filters ? rewrite(rec.url) : rec.url;
          if (url === null) { count(counters, 'urls_filtered'); continue; }
          if (rec.value.status === CrawlStatus.STATUS_LINKED) counters.outlinks!++;
          batch.push({ url, datum: rec.value });
          if (batch.length >= batchSize) {
            staging.add(batch);
            staged += batch.length;
            batch = [];
            checkAborted(opts.signal);
            emit({ type: 'progress', stage: 'updatedb', done: staged, counters: { ...counters } });
          }
        }
        staging.add(batch);
        staged += batch.length;
      }
      await segment.close();
    }
    checkAborted(opts.signal);
    // 2. -normalize / -filter also apply to the CrawlDb's own entries: a renamed or rejected entry
    //    is dropped under its old key (and a renamed one staged under its new key).
    if (normalizers || filters) {
      let batch: { url: string; datum: CrawlDatum }[] = [];
      for await (const { url, value } of db.scan({ batchSize })) {
        if (purge404 && value.status === CrawlStatus.STATUS_DB_GONE) continue; // purged in the merge
        if (purgeOrphans && value.status === CrawlStatus.STATUS_DB_ORPHAN) continue;
        const to = rewrite(url);
        if (to === url) continue;
        batch.push({ url, datum: { ...value, status: DROP_OLD } });
        if (to === null) count(counters, 'urls_filtered');
        else batch.push({ url: to, datum: value });
        if (batch.length >= batchSize) { staging.add(batch); batch = []; await yieldToEventLoop(); }
      }
      staging.add(batch);
    }

    // 3. Merge-join the sorted segment datums with the CrawlDb, URL by URL.
    const out: Keyed<CrawlDatum>[] = [];
    const dels: string[] = [];
    let merged = 0;
    const flush = async () => {
      await session!.put(out);
      await session!.delete(dels);
      merged += out.length + dels.length;
      out.length = 0;
      dels.length = 0;
      checkAborted(opts.signal);
      emit({ type: 'progress', stage: 'updatedb', done: merged, counters: { ...counters } });
    };
    const dbIter = db.scan({ batchSize })[Symbol.asyncIterator]();
    let dbHead = (await dbIter.next()).value as Keyed<CrawlDatum> | undefined;
    const stIter = staging.records();
    let stHead = stIter.next().value as { url: string; datum: CrawlDatum } | undefined;
    let steps = 0;
    while (dbHead || stHead) {
      const cmp = !stHead ? -1 : !dbHead ? 1 : compareUrls(dbHead.url, stHead.url);
      if (cmp < 0) {
        // A CrawlDb entry without new data.
        const { url, value } = dbHead!;
        if (purged(value)) dels.push(url);
        else if (orphanAware) {
          const kept = reduceCrawlDatum(url, { old: value, fetch: null, linked: [], signature: null, parseMeta: null }, env)!;
          if (!sameDatum(kept, value)) out.push({ url, value: kept });
          count(counters, statusName(kept.status));
        } else count(counters, statusName(value.status));
        dbHead = (await dbIter.next()).value;
      } else {
        const url = stHead!.url;
        const values = new CrawlDbValues(maxLinks);
        let dropOld = false;
        while (stHead && stHead.url === url) {
          if (stHead.datum.status === DROP_OLD) dropOld = true;
          else if (!(hasDbStatus(stHead.datum) && purged(stHead.datum))) values.add(stHead.datum);
          stHead = stIter.next().value;
        }
        const inDb = cmp === 0;
        if (inDb) {
          if (!dropOld && !purged(dbHead!.value)) values.add(dbHead!.value);
          dbHead = (await dbIter.next()).value;
        }
        if (values.unknown > 0) log.warn(`Unknown status in ${values.unknown} datum(s) of ${url.slice(0, 300)}; ignored`);
        const wasKnown = values.old !== null;
        const result = reduceCrawlDatum(url, values.input(), env);
        if (result) {
          out.push({ url, value: result });
          count(counters, statusName(result.status));
          if (!wasKnown) count(counters, 'urls_added');
        } else if (inDb) dels.push(url);
      }
      if (out.length + dels.length >= batchSize) await flush();
      else if (++steps % 2000 === 0) await yieldToEventLoop();
    }
    await flush();
    // The last report before the commit (crash tests kill here).
    emit({ type: 'progress', stage: 'updatedb', done: merged, total: merged, counters: { ...counters } });
    await session.commit();
    session = undefined;
  } catch (err) {
    await session?.abort();
    if (isPoliteStop(err, opts.signal)) {
      count(counters, 'stopped');
      log.warn('CrawlDb update: stopped; nothing was merged, the CrawlDb is unchanged');
      return finish();
    }
    throw err;
  } finally {
    staging.close();
    await db.close();
  }
  return finish();

  function finish(): Counters {
    const ms = Date.now() - started;
    log.info(`CrawlDb update: finished, elapsed: ${ms} ms; ${Object.entries(counters).map(([k, v]) => `${k}=${v}`).join(' ')}`);
    emit({ type: 'stage-end', stage: 'updatedb', counters, ms });
    return counters;
  }
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function checkAborted(signal?: AbortSignal): void {
  if (signal?.aborted) {
    const err = new Error('updatedb stopped');
    err.name = 'AbortError';
    throw err;
  }
}

/** Does any filter of the scoring chain implement this method? (Skips work for the common chains.) */
async function anyScoringFilterHas(ctx: NutchContext, method: keyof ScoringFilter): Promise<boolean> {
  for (const ext of ctx.extensions.scoringChain()) {
    const f = await ctx.plugins.getInstance<ScoringFilter>(ext);
    if (typeof f[method] === 'function') return true;
  }
  return false;
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

