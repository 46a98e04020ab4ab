/**
 * The Injector (`nutch inject <crawldb> <url_dir>`): seed URLs into the CrawlDb, as Nutch's
 * InjectMapper + InjectReducer. One CrawlDb update session: nothing is visible until the commit at
 * the end, and a crash anywhere leaves the previous CrawlDb as it was. Memory is bounded by
 * storage.batch.size (seeds are merged into the CrawlDb one batch at a time).
 */
import { CrawlStatus, cloneCrawlDatum, createCrawlDatum, type CrawlDatum } from '../../model/crawl-datum.js';
import type { NutchContext } from '../context.js';
import type { Counters, StageOptions } from '../progress.js';
import type { CrawlDb, CrawlDbUpdate, Keyed } from '../../storage/interfaces.js';
import type { FetchSchedule } from '../../extension-points/fetch-schedule.js';
import type { ScoringFilters } from '../../extension-points/scoring-filter.js';
import { normalizeThenFilter, type UrlRewrite } from '../../extension-points/normalize-then-filter.js';
import { StageRun } from '../stage-run.js';
import { listSeedFiles, readSeedLines, type SeedLine } from './seed-files.js';
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

interface InjectSettings {
  overwrite: boolean;
  update: boolean;
  maxUrlLength: number;
  scoreInjected: number;
  defaultInterval: number;
  purge404: boolean;
  batchSize: number;
  /** Normalise-then-filter of the seeds (and with -filterNormalizeAll of existing URLs); null: neither. */
  rewrite: UrlRewrite | null;
  scoring: ScoringFilters;
  schedule: FetchSchedule;
}

export async function inject(ctx: NutchContext, args: InjectArgs, opts: StageOptions = {}): Promise<Counters> {
  const run = new StageRun(ctx, 'inject', opts, { urls_injected: 0, urls_injected_unique: 0, urls_filtered: 0, urls_malformed: 0, urls_merged: 0 });
  const { conf } = ctx;
  const overwrite = args.overwrite ?? conf.getBoolean('db.injector.overwrite');
  const update = args.update ?? conf.getBoolean('db.injector.update');
  run.start({ crawlDb: args.crawlDb, urlDir: args.urlDir });
  run.log.info(`Injector: starting, crawlDb: ${args.crawlDb}, urlDir: ${args.urlDir}, overwrite: ${overwrite}, update: ${update}`);

  const files = listSeedFiles(args.urlDir, (m) => run.log.warn(m));
  // Every extension the stage uses is instantiated before the first record is read.
  const normalizers = args.noNormalize ? null : await ctx.extensions.urlNormalizers('inject');
  const filters = args.noFilter ? null : await ctx.extensions.urlFilters();
  const s: InjectSettings = {
    overwrite, update,
    maxUrlLength: conf.getInt('db.max.outlink.length'),
    scoreInjected: conf.getFloat('db.score.injected'),
    defaultInterval: conf.getInt('db.fetch.interval.default'),
    purge404: conf.getBoolean('db.update.purge.404'),
    batchSize: Math.max(1, conf.getInt('storage.batch.size')),
    rewrite: normalizers || filters ? normalizeThenFilter(normalizers, filters) : null,
    scoring: await ctx.extensions.scoringFilters(),
    schedule: await ctx.extensions.fetchSchedule(),
  };

  const db = await ctx.storage.openCrawlDb(args.crawlDb);
  try {
    // a polite stop commits the seeds read so far, as the rest of a seed list can be injected later
    await run.inSession(() => db.beginUpdate({ force: args.force }), async (session) => {
      await injectSeeds(run, db, session, files, s);
      if (run.stopping) {
        run.count('stopped');
        run.log.warn('Injector: stopped; committing the seeds read so far');
      } else if (s.purge404 || args.filterNormalizeAll) {
        await rewriteExisting(session, { purge404: s.purge404, rewrite: args.filterNormalizeAll ? s.rewrite : null, batchSize: s.batchSize, counters: run.counters });
      }
    }, 'Injector: stopped');
  } finally {
    await db.close();
  }
  logTotals(run, s.purge404);
  return run.finish((ms) => `Injector: finished, elapsed: ${ms} ms`, { ...run.counters });
}

/**
 * Reads every seed line into the session, a batch at a time (InjectMapper + InjectReducer). The
 * session is only written to, never read, so an engine can send the seeds without waiting for
 * earlier batches: a batch is merged against the committed CrawlDb (skipped when that is empty),
 * and the URLs new to it are counted once at the end, as the records the session added.
 */
async function injectSeeds(run: StageRun, db: CrawlDb, session: CrawlDbUpdate, files: string[], s: InjectSettings): Promise<void> {
  const before = (await db.exists()) ? await db.count() : 0;
  const pending = new Map<string, CrawlDatum>();
  const curTime = Date.now();
  const slice = new TimeSlice();
  let lines = 0;
  const flush = async () => {
    if (pending.size === 0) return;
    await mergeSeeds(run, before > 0 ? db : null, session, pending, s);
    pending.clear();
    run.progress(lines);
  };
  for (const file of files) {
    run.log.info(`Injecting seed URL file ${file}`);
    for await (const seed of readSeedLines(file, LINE_CAP)) {
      if (run.stopping) break;
      await slice.tick();
      lines++;
      const seeded = seedDatum(run, seed, s, curTime);
      if (!seeded) continue;
      run.count('urls_injected');
      pending.set(seeded.url, seeded.datum);
      if (pending.size >= s.batchSize) await flush();
    }
    if (run.stopping) break;
  }
  await flush();
  // unique = the URLs already in the CrawlDb, once per batch they appear in (counted by mergeSeeds), plus every new URL once
  run.counters.urls_injected_unique = (run.counters.urls_injected_unique ?? 0) + (await session.count()) - before;
}

/** One seed line: its URL (normalised, filtered) and new datum, or null when it is skipped (counted). */
function seedDatum(run: StageRun, seed: SeedLine, s: InjectSettings, curTime: number): { url: string; datum: CrawlDatum } | null {
  const culprit = `${seed.file}:${seed.line}`;
  const skip = (counter: string, reason: string, url?: string) => {
    run.count(counter);
    run.log.warn(`Skipping seed at ${culprit}: ${reason}`, { url: url?.slice(0, 200) });
    run.emit({ type: 'skip', stage: 'inject', url: url?.slice(0, 200), reason, culprit });
    return null;
  };
  if (seed.text === null) return skip('urls_malformed', 'line is not valid UTF-8 text');
  if (seed.tooLong) return skip('urls_too_long', `line longer than ${LINE_CAP} bytes`);
  const parsed = splitSeedLine(seed.text);
  if (!parsed) return null;
  if (parsed.url.length > s.maxUrlLength) return skip('urls_too_long', `URL longer than db.max.outlink.length (${parsed.url.length} > ${s.maxUrlLength})`, parsed.url);
  const bad = malformedReason(parsed.url);
  if (bad) return skip('urls_malformed', `malformed URL (${bad})`, parsed.url);
  const url = s.rewrite ? s.rewrite(parsed.url) : parsed.url;
  if (url === null) {
    run.count('urls_filtered');
    run.emit({ type: 'skip', stage: 'inject', url: parsed.url.slice(0, 200), reason: 'filtered', culprit });
    return null;
  }
  const datum = s.schedule.initializeSchedule(url, createCrawlDatum({ status: CrawlStatus.STATUS_INJECTED }));
  datum.fetchTime = curTime;
  datum.score = s.scoreInjected;
  datum.fetchInterval = s.defaultInterval;
  for (const problem of applySeedMetadata(parsed.metadata, datum)) {
    run.count('metadata_invalid');
    run.log.error(`${culprit}: ${problem} for url ${url.slice(0, 200)}; ignored`);
    run.emit({ type: 'skip', stage: 'inject', url: url.slice(0, 200), reason: problem, culprit });
  }
  s.scoring.injectedScore(url, datum);
  datum.status = CrawlStatus.STATUS_DB_UNFETCHED;
  return { url, datum };
}

/**
 * InjectReducer: a batch of seeds against the committed CrawlDb (overwrite / update rules); `db` is
 * null when that is empty, so every seed is new. Seeds already in the CrawlDb are counted here
 * (urls_merged, urls_injected_unique); new ones by injectSeeds.
 */
async function mergeSeeds(run: StageRun, db: CrawlDb | null, session: CrawlDbUpdate, pending: Map<string, CrawlDatum>, s: InjectSettings): Promise<void> {
  if (!db) {
    await session.put([...pending].map(([url, value]) => ({ url, value })));
    return;
  }
  const before = await db.getMany([...pending.keys()]); // the committed CrawlDb: what "already present" means
  const out: Keyed<CrawlDatum>[] = [];
  for (const [url, injected] of pending) {
    const old = before.get(url);
    if (old) {
      run.count('urls_injected_unique');
      run.count('urls_merged');
    }
    if (!old || s.overwrite) {
      out.push({ url, value: injected });
      continue;
    }
    if (s.update) out.push({ url, value: mergeInjected(old, injected, s.scoreInjected, s.defaultInterval) });
  }
  await session.put(out);
}

function logTotals({ log, counters }: StageRun, purge404: boolean): void {
  log.info(`Injector: Total urls rejected by filters: ${counters.urls_filtered}`);
  log.info(`Injector: Total urls injected after normalization and filtering: ${counters.urls_injected} (unique URLs: ${counters.urls_injected_unique})`);
  log.info(`Injector: Total urls injected but already in CrawlDb: ${counters.urls_merged}`);
  log.info(`Injector: Total new urls injected: ${counters.urls_injected_unique! - counters.urls_merged!}`);
  if (counters.urls_malformed) log.info(`Injector: Total malformed seed lines skipped: ${counters.urls_malformed}`);
  if (purge404) log.info(`Injector: Total urls with status gone removed from CrawlDb (db.update.purge.404): ${counters.urls_purged_404 ?? 0}`);
}

/** db.injector.update: the old record with the seed's metadata, and its score/interval when they differ from the defaults. */
function mergeInjected(old: CrawlDatum, injected: CrawlDatum, scoreInjected: number, defaultInterval: number): CrawlDatum {
  const merged = cloneCrawlDatum(old);
  for (const [k, v] of Object.entries(injected.metaData)) merged.metaData[k] = [...v];
  merged.score = injected.score !== scoreInjected ? injected.score : old.score;
  merged.fetchInterval = injected.fetchInterval !== defaultInterval ? injected.fetchInterval : old.fetchInterval;
  return merged;
}
