/**
 * The Injector (`nutch inject <crawldb> <url_dir>`): seed URLs into the CrawlDb, as Nutch's
 * InjectMapper + InjectReducer. One CrawlDb update session: nothing is visible until the commit at
 * the end, and a crash anywhere leaves the previous CrawlDb as it was. Memory is bounded by
 * storage.batch.size (seeds are merged into the CrawlDb one batch at a time).
 */
import { CrawlStatus, cloneCrawlDatum, createCrawlDatum, type CrawlDatum } from '../../model/crawl-datum.js';
import type { NutchContext } from '../context.js';
import { count, type Counters, type ProgressEvent, type StageOptions } from '../progress.js';
import type { CrawlDbUpdate, Keyed } from '../../storage/interfaces.js';
import { listSeedFiles, readSeedLines } from './seed-files.js';
import { applySeedMetadata, malformedReason, splitSeedLine } from './seed-line.js';
import { rewriteExisting } from './rewrite-existing.js';
import { TimeSlice } from '../../storage/yield.js';

export interface InjectArgs {
  crawlDb: string;
  /** A seed file, or a directory of seed files. */
  urlDir: string;
  /** Injected records replace existing ones (default db.injector.overwrite). */
  overwrite?: boolean;
  /** Injected metadata, score and interval update existing records (default db.injector.update). */
  update?: boolean;
  noNormalize?: boolean;
  noFilter?: boolean;
  /** Also normalise and filter the URLs already in the CrawlDb. */
  filterNormalizeAll?: boolean;
  /** Take the CrawlDb lock even if held. */
  force?: boolean;
}

/** Bytes kept of one seed line; longer lines are skipped as too long. */
const LINE_CAP = 1024 * 1024;

export async function inject(ctx: NutchContext, args: InjectArgs, opts: StageOptions = {}): Promise<Counters> {
  const started = Date.now();
  const counters: Counters = { urls_injected: 0, urls_injected_unique: 0, urls_filtered: 0, urls_malformed: 0, urls_merged: 0 };
  const emit = (e: ProgressEvent) => opts.onProgress?.(e);
  const log = ctx.log.child({ stage: 'inject' });
  const { conf } = ctx;
  const overwrite = args.overwrite ?? conf.getBoolean('db.injector.overwrite');
  const update = args.update ?? conf.getBoolean('db.injector.update');
  const maxUrlLength = conf.getInt('db.max.outlink.length');
  const scoreInjected = conf.getFloat('db.score.injected');
  const defaultInterval = conf.getInt('db.fetch.interval.default');
  const purge404 = conf.getBoolean('db.update.purge.404');
  const batchSize = Math.max(1, conf.getInt('storage.batch.size'));
  emit({ type: 'stage-start', stage: 'inject', args: { crawlDb: args.crawlDb, urlDir: args.urlDir } });
  log.info(`Injector: starting, crawlDb: ${args.crawlDb}, urlDir: ${args.urlDir}, overwrite: ${overwrite}, update: ${update}`);

  const files = listSeedFiles(args.urlDir, (m) => log.warn(m));
  // Every extension the stage uses is instantiated before the first record is read.
  const normalizers = args.noNormalize ? null : await ctx.extensions.urlNormalizers('inject');
  const filters = args.noFilter ? null : await ctx.extensions.urlFilters();
  const scoring = await ctx.extensions.scoringFilters();
  const schedule = await ctx.extensions.fetchSchedule();

  const db = await ctx.storage.openCrawlDb(args.crawlDb);
  let session: CrawlDbUpdate | undefined;
  try {
    session = await db.beginUpdate({ force: args.force });
    const curTime = Date.now();
    const pending = new Map<string, CrawlDatum>();
    let lines = 0;
    const slice = new TimeSlice();

    const skip = (counter: string, culprit: string, reason: string, url?: string) => {
      count(counters, counter);
      log.warn(`Skipping seed at ${culprit}: ${reason}`, { url: url?.slice(0, 200) });
      emit({ type: 'skip', stage: 'inject', url: url?.slice(0, 200), reason, culprit });
    };

    const flush = async () => {
      if (pending.size === 0) return;
      const urls = [...pending.keys()];
      const before = await db.getMany(urls); // the committed CrawlDb: what "already present" means
      const written = await session!.getMany(urls); // includes seeds of earlier batches of this run
      const out: Keyed<CrawlDatum>[] = [];
      for (const [url, injected] of pending) {
        const old = before.get(url);
        if (!(written.has(url) && !old)) count(counters, 'urls_injected_unique');
        if (old) count(counters, 'urls_merged');
        if (!old || overwrite) {
          out.push({ url, value: injected });
          continue;
        }
        if (update) out.push({ url, value: mergeInjected(old, injected, scoreInjected, defaultInterval) });
      }
      await session!.put(out);
      pending.clear();
      emit({ type: 'progress', stage: 'inject', done: lines, counters: { ...counters } });
    };

    outer: for (const file of files) {
      log.info(`Injecting seed URL file ${file}`);
      for await (const seed of readSeedLines(file, LINE_CAP)) {
        if (opts.signal?.aborted) break outer;
        await slice.tick();
        lines++;
        const culprit = `${seed.file}:${seed.line}`;
        if (seed.text === null) { skip('urls_malformed', culprit, 'line is not valid UTF-8 text'); continue; }
        if (seed.tooLong) { skip('urls_too_long', culprit, `line longer than ${LINE_CAP} bytes`); continue; }
        const parsed = splitSeedLine(seed.text);
        if (!parsed) continue;
        if (parsed.url.length > maxUrlLength) {
          skip('urls_too_long', culprit, `URL longer than db.max.outlink.length (${parsed.url.length} > ${maxUrlLength})`, parsed.url);
          continue;
        }
        const bad = malformedReason(parsed.url);
        if (bad) { skip('urls_malformed', culprit, `malformed URL (${bad})`, parsed.url); continue; }
        let url: string | null = parsed.url;
        if (normalizers) url = normalizers.normalize(url);
        if (url !== null && filters) url = filters.filter(url);
        if (url === null) {
          count(counters, 'urls_filtered');
          emit({ type: 'skip', stage: 'inject', url: parsed.url.slice(0, 200), reason: 'filtered', culprit });
          continue;
        }
        const datum = schedule.initializeSchedule(url, createCrawlDatum({ status: CrawlStatus.STATUS_INJECTED }));
        datum.fetchTime = curTime;
        datum.score = scoreInjected;
        datum.fetchInterval = defaultInterval;
        for (const problem of applySeedMetadata(parsed.metadata, datum)) {
          count(counters, 'metadata_invalid');
          log.error(`${culprit}: ${problem} for url ${url.slice(0, 200)}; ignored`);
          emit({ type: 'skip', stage: 'inject', url: url.slice(0, 200), reason: problem, culprit });
        }
        scoring.injectedScore(url, datum);
        datum.status = CrawlStatus.STATUS_DB_UNFETCHED;
        count(counters, 'urls_injected');
        pending.set(url, datum);
        if (pending.size >= batchSize) await flush();
      }
    }
    await flush();
    if (opts.signal?.aborted) {
      count(counters, 'stopped');
      log.warn('Injector: stopped; committing the seeds read so far');
    } else if (purge404 || args.filterNormalizeAll) {
      await rewriteExisting(session, { purge404, normalizers: args.filterNormalizeAll ? normalizers : null, filters: args.filterNormalizeAll ? filters : null, batchSize, counters });
    }
    await session.commit();
  } catch (err) {
    await session?.abort();
    throw err;
  } finally {
    await db.close();
  }

  log.info(`Injector: Total urls rejected by filters: ${counters.urls_filtered}`);
  log.info(`Injector: Total urls injected after normalization and filtering: ${counters.urls_injected} (unique URLs: ${counters.urls_injected_unique})`);
  log.info(`Injector: Total urls injected but already in CrawlDb: ${counters.urls_merged}`);
  log.info(`Injector: Total new urls injected: ${counters.urls_injected_unique - counters.urls_merged}`);
  if (counters.urls_malformed) log.info(`Injector: Total malformed seed lines skipped: ${counters.urls_malformed}`);
  if (purge404) log.info(`Injector: Total urls with status gone removed from CrawlDb (db.update.purge.404): ${counters.urls_purged_404 ?? 0}`);
  const ms = Date.now() - started;
  log.info(`Injector: finished, elapsed: ${ms} ms`);
  emit({ type: 'stage-end', stage: 'inject', counters: { ...counters }, ms });
  return counters;
}

/** db.injector.update: the old record with the seed's metadata, and its score/interval when they differ from the defaults. */
function mergeInjected(old: CrawlDatum, injected: CrawlDatum, scoreInjected: number, defaultInterval: number): CrawlDatum {
  const merged = cloneCrawlDatum(old);
  for (const [k, v] of Object.entries(injected.metaData)) merged.metaData[k] = [...v];
  merged.score = injected.score !== scoreInjected ? injected.score : old.score;
  merged.fetchInterval = injected.fetchInterval !== defaultInterval ? injected.fetchInterval : old.fetchInterval;
  return merged;
}
