/**
 * The Generator (`nutch generate <crawldb> <segments_dir> [-topN N] [-numFetchers N] [-noFilter]
 * [-noNorm] [-adddays N] [-maxNumSegments N] [-force]`), as Nutch's: select the due URLs best first,
 * cap them per segment (topN) and per host or domain (generate.max.count), split each segment's
 * crawl_generate into numFetchers partitions, and with generate.update.crawldb mark the selected
 * URLs so that the next generate skips them until crawl.gen.delay has passed.
 *
 * Crash safety: the CrawlDb is locked (one update session) for the whole stage; each segment is written
 * under a hidden staging name and renamed into place when complete; the CrawlDb marks commit last.
 * A crash leaves the CrawlDb as it was and, at worst, an extra complete segment.
 */
import type { NutchContext } from '../context.js';
import type { Counters, ProgressEvent, StageOptions } from '../progress.js';
import type { CrawlDb, CrawlDbReader, CrawlDbUpdate, Segment } from '../../storage/interfaces.js';
import type { URLFilters } from '../../extension-points/url-filter.js';
import type { URLNormalizers } from '../../extension-points/url-normalizer.js';
import { StageRun } from '../stage-run.js';
import { openExistingCrawlDb } from '../existing-stores.js';
import { CandidateRuns, type Candidate } from './candidate-runs.js';
import { TopCandidates } from './top-candidates.js';
import { SegmentAllocation } from './segment-allocation.js';
import { generatedDatum, type SelectorOptions } from './selector.js';
import { selectCandidates } from './candidate-selection.js';
import { HostIds } from './host-ids.js';
import { URLPartitioner, type PartitionMode } from './url-partitioner.js';
import { hostOf } from '../../url/url-parts.js';
import { noSelectionReason } from './no-selection-reason.js';
import { DatumMeta, type CrawlDatum } from '../../model/crawl-datum.js';
import { TimeSlice } from '../../storage/yield.js';
import { hostLimitSettings, loadHostLimits, requireHostDb, type HostLimits } from './host-limits.js';

export interface GenerateArgs {
  crawlDb: string;
  segmentsDir: string;
  /** URLs per segment (default: no limit). */
  topN?: number;
  /** Partitions of crawl_generate (fetch lists); default 1. */
  numFetchers?: number;
  noFilter?: boolean;
  noNorm?: boolean;
  /** Pretend it is this many days later (generate -adddays). */
  addDays?: number;
  /** Segments to fill when generate.max.count overflows (default 1). */
  maxNumSegments?: number;
  /** Take the CrawlDb lock even if held. */
  force?: boolean;
  /** A HostDb for generate.max.count.expr / generate.fetch.delay.expr (default generate.hostdb). */
  hostDb?: string;
  /** Metadata written into each new segment before it is published (the crawl loop marks its rounds' segments). */
  segmentMeta?: Record<string, string>;
}

export interface GenerateResult {
  counters: Counters;
  /** Paths of the segments created, in order. */
  segments: string[];
}

const DAY_MS = 86_400_000;

interface GenerateSettings {
  topN: number;
  numFetchers: number;
  maxNumSegments: number;
  filter: boolean;
  normalise: boolean;
  maxCount: number;
  byDomain: boolean;
  batchSize: number;
  curTime: number;
  genTime: number;
  /** generate.max.count.expr / generate.fetch.delay.expr over a HostDb, when configured. */
  hostLimitConf: ReturnType<typeof hostLimitSettings>;
  /** A per-host expression: every selected URL's host is looked up (by host, whatever generate.count.mode). */
  perHostCount: boolean;
  countHosts: boolean;
}

export async function generate(ctx: NutchContext, args: GenerateArgs, opts: StageOptions = {}): Promise<Counters> {
  return (await generateSegments(ctx, args, opts)).counters;
}

export async function generateSegments(ctx: NutchContext, args: GenerateArgs, opts: StageOptions = {}): Promise<GenerateResult> {
  const run = new StageRun(ctx, 'generate', opts);
  const s = generateSettings(ctx, args);
  run.start({ ...args });
  run.log.info(`Generator: starting, selecting best-scoring urls due for fetch; topN: ${s.topN === Infinity ? 'unlimited' : s.topN}, numFetchers: ${s.numFetchers}, filtering: ${s.filter}, normalizing: ${s.normalise}`);
  const created: string[] = [];
  const finish = (): GenerateResult => {
    run.finish((ms) => `Generator: finished, ${run.counters.selected ?? 0} URLs selected in ${created.length} segment(s), elapsed: ${ms} ms`, { ...run.counters });
    return { counters: run.counters, segments: created };
  };

  const db = await openExistingCrawlDb(ctx, args.crawlDb, `. Run "nutch inject ${args.crawlDb} <url_dir>" first.`);
  if (s.hostLimitConf) {
    try {
      await requireHostDb(ctx.storage, s.hostLimitConf);
    } catch (err) {
      await db.close();
      throw err;
    }
  }
  const filters = s.filter ? await ctx.extensions.urlFilters() : null;
  const hostNormalizers = s.normalise && s.countHosts ? await ctx.extensions.urlNormalizers('generate_host_count') : null;
  const partitionNormalizers = s.normalise ? await ctx.extensions.urlNormalizers('partition') : null;
  const scoring = await ctx.extensions.scoringFilters();
  const schedule = await ctx.extensions.fetchSchedule();

  let session: CrawlDbUpdate | undefined;
  try {
    session = await db.beginUpdate({ force: args.force });
    // under the CrawlDb's writer lock no other generate runs: staged segments are a killed one's
    for (const name of await ctx.storage.discardStaleStagedSegments(args.segmentsDir)) {
      run.log.warn(`Generator: removed incomplete segment ${name} left by an interrupted generate`, { segment: name });
    }
    const { segmentsToWrite, fetchDelay } = await selectAndAllocate(ctx, run, db, s, { filters, schedule, scoring, hostNormalizers });
    if (segmentsToWrite.length === 0) {
      await session.abort();
      return finish();
    }
    const partitioner = new URLPartitioner(ctx.conf.getString('partition.url.mode') as PartitionMode, s.numFetchers, partitionNormalizers, (m) => run.log.warn(m));
    for (const urls of segmentsToWrite) {
      await partitioner.prepare(urls);
      const seg = await writeSegment(ctx, db, urls, { segmentsDir: args.segmentsDir, numFetchers: s.numFetchers, partitioner, batchSize: s.batchSize, schedule, curTime: s.curTime, genTime: s.genTime, emit: (e) => run.emit(e), counters: run.counters, fetchDelay, meta: args.segmentMeta });
      created.push(seg.path);
      run.log.info(`Generator: segment: ${seg.path} (${urls.length} URLs)`);
      await seg.close();
    }
    run.counters.segments = created.length;
    if (ctx.conf.getBoolean('generate.update.crawldb')) {
      await markGenerated(run, db, session, segmentsToWrite, s);
      await session.commit();
    } else {
      await session.abort();
    }
  } catch (err) {
    await session?.abort();
    throw err;
  } finally {
    await db.close();
  }
  return finish();
}

function generateSettings(ctx: NutchContext, args: GenerateArgs): GenerateSettings {
  const { conf } = ctx;
  const now = Date.now();
  const maxCount = conf.getInt('generate.max.count');
  const hostLimitConf = hostLimitSettings(conf, args.hostDb);
  const perHostCount = !!hostLimitConf?.maxCountExpr;
  return {
    topN: args.topN !== undefined && args.topN > 0 ? args.topN : Infinity,
    numFetchers: Math.max(1, args.numFetchers ?? 1),
    maxNumSegments: Math.max(1, args.maxNumSegments ?? 1),
    filter: !args.noFilter && conf.getBoolean('generate.filter', true),
    normalise: !args.noNorm && conf.getBoolean('generate.normalise', true),
    maxCount,
    byDomain: conf.getString('generate.count.mode') === 'domain',
    batchSize: Math.max(1, conf.getInt('storage.batch.size')),
    curTime: now + (args.addDays ?? 0) * DAY_MS,
    genTime: now,
    hostLimitConf, perHostCount,
    countHosts: maxCount > 0 || perHostCount || !!hostLimitConf?.fetchDelayExpr,
  };
}

interface SelectChains {
  filters: URLFilters | null;
  schedule: SelectorOptions['schedule'];
  scoring: SelectorOptions['scoring'];
  hostNormalizers: URLNormalizers | null;
}

/**
 * 1. select: every record through the Selector checks, candidates kept best first
 * (candidate-selection.ts); 2. the HostDb's per-host limits, when configured; 3. allocate: best first
 * into segments, capped by topN and generate.max.count. Returns the non-empty segments' URLs, or none
 * when stopped or nothing is due (said in the log and the counters).
 */
async function selectAndAllocate(ctx: NutchContext, run: StageRun, db: CrawlDb, s: GenerateSettings, chains: SelectChains): Promise<{ segmentsToWrite: string[][]; fetchDelay: HostLimits['fetchDelay'] }> {
  const { counters, log } = run;
  const hostIds = new HostIds(chains.hostNormalizers, s.byDomain && !s.hostLimitConf);
  // URLs of a host that fit in no segment, counted once per URL and once per host, as Nutch
  const affectedHosts = new Set<number>();
  const hostOverflow = (h: number) => {
    run.count('URLS_SKIPPED_PER_HOST_OVERFLOW');
    if (affectedHosts.has(h)) return;
    affectedHosts.add(h);
    counters.HOSTS_AFFECTED_PER_HOST_OVERFLOW = affectedHosts.size;
    log.info(`Host or domain ${hostIds.names[h]} has more than ${s.maxCount} URLs for all ${s.maxNumSegments} segments. Additional URLs won't be included in the fetchlist.`);
  };
  const store = candidateStore(s, (c) => hostOverflow(c.host));
  const slice = new TimeSlice();
  await selectCandidates(run, db, store, {
    selector: selectorOptions(run, s, chains),
    hostIds: s.countHosts ? hostIds : null,
    batchSize: s.batchSize,
    slice,
  });
  let hostLimits: HostLimits = { maxCount: new Map(), fetchDelay: new Map() };
  if (s.hostLimitConf && !run.stopping) hostLimits = await loadHostLimits(ctx.storage, s.hostLimitConf, hostIds.names, s.batchSize, log);

  const allocation = new SegmentAllocation({
    topN: s.topN, maxCount: s.maxCount, maxNumSegments: s.maxNumSegments, counters, onHostOverflow: hostOverflow,
    maxCountOf: s.perHostCount ? (h) => hostLimits.maxCount.get(hostIds.names[h]!) ?? s.maxCount : undefined,
  });
  for await (const c of store.sorted()) {
    if (run.stopping || !allocation.open) break;
    await slice.tick();
    allocation.offer(c);
  }
  const segmentsToWrite = allocation.segments.filter((seg) => seg.length > 0);
  counters.selected = segmentsToWrite.reduce((n, seg) => n + seg.length, 0);
  if (run.stopping) {
    run.count('stopped');
    counters.selected = 0;
    log.warn('Generator: stopped before writing a segment; nothing generated');
    return { segmentsToWrite: [], fetchDelay: hostLimits.fetchDelay };
  }
  if (counters.selected === 0) {
    const reason = noSelectionReason(counters);
    counters[reason.counter] = 1;
    log.warn(`Generator: 0 records selected for fetching, exiting ... (${reason.message})`);
  }
  return { segmentsToWrite, fetchDelay: hostLimits.fetchDelay };
}

/**
 * Bounded selection (top-candidates.ts) wherever keeping the best topN × maxNumSegments is exact;
 * else every candidate in sorted runs (candidate-runs.ts).
 */
function candidateStore(s: GenerateSettings, onHostOverflow: (c: Candidate) => void): TopCandidates | CandidateRuns {
  const keep = s.topN * s.maxNumSegments;
  const perHost = s.maxCount > 0 && !s.perHostCount ? s.maxCount * s.maxNumSegments : 0;
  const bounded = Number.isFinite(keep) && !s.perHostCount && (perHost === 0 || s.maxNumSegments === 1);
  return bounded ? new TopCandidates(keep, perHost, onHostOverflow) : new CandidateRuns(keep, perHost, onHostOverflow);
}

function selectorOptions(run: StageRun, s: GenerateSettings, chains: SelectChains): SelectorOptions {
  return {
    filters: chains.filters, schedule: chains.schedule, scoring: chains.scoring, curTime: s.curTime, counters: run.counters,
    restrictStatus: run.conf.getString('generate.restrict.status'),
    genDelay: run.conf.getInt('crawl.gen.delay'),
    minInterval: run.conf.getInt('generate.min.interval'),
    minScore: run.conf.getFloat('generate.min.score'),
  };
}

/** 4. generate.update.crawldb: mark the selected URLs so the next generate skips them (committed last). */
async function markGenerated(run: StageRun, db: CrawlDb, session: CrawlDbUpdate, segments: string[][], s: GenerateSettings): Promise<void> {
  for (const urls of segments) {
    for (let i = 0; i < urls.length; i += s.batchSize) {
      const slice = urls.slice(i, i + s.batchSize);
      const datums = await db.getMany(slice);
      const marked = [...datums].map(([url, d]) => ({ url, value: { ...d, metaData: { ...d.metaData, [DatumMeta.GENERATE_TIME_KEY]: [String(s.genTime)] } } }));
      await session.put(marked);
      run.progress(i + slice.length, urls.length);
    }
  }
}

interface WriteOptions {
  segmentsDir: string;
  numFetchers: number;
  partitioner: URLPartitioner;
  batchSize: number;
  schedule: Awaited<ReturnType<NutchContext['extensions']['fetchSchedule']>>;
  curTime: number;
  genTime: number;
  emit(e: ProgressEvent): void;
  counters: Counters;
  /** generate.fetch.delay.expr's delay (ms) per host name, stored in each datum as _variableFetchDelay_. */
  fetchDelay: Map<string, number>;
  meta?: Record<string, string>;
}

async function writeSegment(ctx: NutchContext, db: CrawlDbReader, urls: string[], o: WriteOptions): Promise<Segment> {
  const staged = await ctx.storage.createStagedSegment(o.segmentsDir);
  try {
    const parts: string[][] = Array.from({ length: o.numFetchers }, () => []);
    const slice = new TimeSlice();
    for (const url of urls) {
      parts[o.partitioner.partition(url)].push(url);
      await slice.tick();
    }
    let written = 0;
    for (let p = 0; p < o.numFetchers; p++) {
      const writer = await staged.openWriter('crawl_generate', p, { totalPartitions: o.numFetchers });
      for (let i = 0; i < parts[p].length; i += o.batchSize) {
        const slice = parts[p].slice(i, i + o.batchSize);
        const datums = await db.getMany(slice);
        await writer.append(slice.filter((u) => datums.has(u)).map((url) => ({ url, value: withFetchDelay(url, generatedDatum(url, datums.get(url)!, o.schedule, o.curTime, o.genTime), o.fetchDelay) })));
        written += slice.length;
        o.emit({ type: 'progress', stage: 'generate', done: written, total: urls.length, counters: { ...o.counters } });
      }
      await writer.finish();
      await writer.close();
    }
    // before publish, so the segment is never visible without it
    if (o.meta) await staged.writeMeta(o.meta);
    return await staged.publish();
  } catch (err) {
    await staged.discard();
    throw err;
  }
}

function withFetchDelay(url: string, datum: CrawlDatum, delays: Map<string, number>): CrawlDatum {
  if (delays.size === 0) return datum;
  const host = hostOf(url);
  const ms = host === null ? undefined : delays.get(host);
  if (ms === undefined) return datum;
  return { ...datum, metaData: { ...datum.metaData, [DatumMeta.VARIABLE_FETCH_DELAY_KEY]: [String(ms)] } };
}
