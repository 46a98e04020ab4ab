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
import { NutchError } from '../../errors.js';
import type { NutchContext } from '../context.js';
import { count, type Counters, type ProgressEvent, type StageOptions } from '../progress.js';
import type { CrawlDbReader, CrawlDbUpdate, Segment } from '../../storage/interfaces.js';
import { CandidateRuns } from './candidate-runs.js';
import { SegmentAllocation } from './segment-allocation.js';
import { generatedDatum, selectSortValue } from './selector.js';
import { URLPartitioner, type PartitionMode } from './url-partitioner.js';
import { domainOf, hostOf } from '../../url/url-parts.js';
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
}

export interface GenerateResult {
  counters: Counters;
  /** Paths of the segments created, in order. */
  segments: string[];
}

const DAY_MS = 86_400_000;

export async function generate(ctx: NutchContext, args: GenerateArgs, opts: StageOptions = {}): Promise<Counters> {
  return (await generateSegments(ctx, args, opts)).counters;
}

export async function generateSegments(ctx: NutchContext, args: GenerateArgs, opts: StageOptions = {}): Promise<GenerateResult> {
  const started = Date.now();
  const counters: Counters = {};
  const emit = (e: ProgressEvent) => opts.onProgress?.(e);
  const log = ctx.log.child({ stage: 'generate' });
  const { conf } = ctx;
  const topN = args.topN !== undefined && args.topN > 0 ? args.topN : Infinity;
  const numFetchers = Math.max(1, args.numFetchers ?? 1);
  const maxNumSegments = Math.max(1, args.maxNumSegments ?? 1);
  const filter = !args.noFilter && conf.getBoolean('generate.filter', true);
  const normalise = !args.noNorm && conf.getBoolean('generate.normalise', true);
  const maxCount = conf.getInt('generate.max.count');
  const byDomain = conf.getString('generate.count.mode') === 'domain';
  const updateDb = conf.getBoolean('generate.update.crawldb');
  const batchSize = Math.max(1, conf.getInt('storage.batch.size'));
  const hostLimitConf = hostLimitSettings(conf, args.hostDb);
  // with a per-host expression every selected URL's host is looked up (by host, whatever generate.count.mode)
  const perHostCount = !!hostLimitConf?.maxCountExpr;
  const countHosts = maxCount > 0 || perHostCount || !!hostLimitConf?.fetchDelayExpr;
  let hostLimits: HostLimits = { maxCount: new Map(), fetchDelay: new Map() };
  const curTime = Date.now() + (args.addDays ?? 0) * DAY_MS;
  const genTime = Date.now();
  emit({ type: 'stage-start', stage: 'generate', args: { ...args } });
  log.info(`Generator: starting, selecting best-scoring urls due for fetch; topN: ${topN === Infinity ? 'unlimited' : topN}, numFetchers: ${numFetchers}, filtering: ${filter}, normalizing: ${normalise}`);

  const db = await ctx.storage.openCrawlDb(args.crawlDb);
  if (!(await db.exists())) {
    await db.close();
    throw new NutchError('NUTCH_STORAGE_NOT_FOUND', `CrawlDb ${args.crawlDb} does not exist. Run "nutch inject ${args.crawlDb} <url_dir>" first.`, { file: args.crawlDb });
  }
  if (hostLimitConf) {
    try {
      await requireHostDb(ctx.storage, hostLimitConf);
    } catch (err) {
      await db.close();
      throw err;
    }
  }
  const filters = filter ? await ctx.extensions.urlFilters() : null;
  const hostNormalizers = normalise && countHosts ? await ctx.extensions.urlNormalizers('generate_host_count') : null;
  const partitionNormalizers = normalise ? await ctx.extensions.urlNormalizers('partition') : null;
  const scoring = await ctx.extensions.scoringFilters();
  const schedule = await ctx.extensions.fetchSchedule();

  let session: CrawlDbUpdate | undefined;
  const created: string[] = [];
  try {
    session = await db.beginUpdate({ force: args.force });
    // under the CrawlDb's writer lock no other generate runs: staged segments are a killed one's
    for (const name of await ctx.storage.discardStaleStagedSegments(args.segmentsDir)) {
      log.warn(`Generator: removed incomplete segment ${name} left by an interrupted generate`, { segment: name });
    }

    // 1. select: every record through the Selector checks, candidates kept in sorted runs
    const hostIds = new Map<string, number>();
    const hostNames: string[] = [];
    // URLs of a host that fit in no segment, counted once per URL and once per host, as Nutch
    const affectedHosts = new Set<number>();
    const hostOverflow = (h: number) => {
      count(counters, 'URLS_SKIPPED_PER_HOST_OVERFLOW');
      if (affectedHosts.has(h)) return;
      affectedHosts.add(h);
      counters.HOSTS_AFFECTED_PER_HOST_OVERFLOW = affectedHosts.size;
      log.info(`Host or domain ${hostNames[h]} has more than ${maxCount} URLs for all ${maxNumSegments} segments. Additional URLs won't be included in the fetchlist.`);
    };
    const runs = new CandidateRuns(topN * maxNumSegments, maxCount > 0 && !perHostCount ? maxCount * maxNumSegments : 0, (c) => hostOverflow(c.host));
    const selector = {
      filters, schedule, scoring, curTime, counters,
      restrictStatus: conf.getString('generate.restrict.status'),
      genDelay: conf.getInt('crawl.gen.delay'),
      minInterval: conf.getInt('generate.min.interval'),
      minScore: conf.getFloat('generate.min.score'),
    };
    let scanned = 0;
    const slice = new TimeSlice();
    // The lock is held and the session writes nothing before the marks at the end, so the committed
    // CrawlDb (the reader connection, on this thread) is exactly what the session would read.
    for await (const { url, value } of db.scan({ batchSize })) {
      await slice.tick();
      if (++scanned % batchSize === 0) {
        emit({ type: 'progress', stage: 'generate', done: scanned, counters: { ...counters } });
        if (opts.signal?.aborted) break;
      }
      const sort = selectSortValue(url, value, selector);
      if (sort === null) continue;
      let host = -1;
      if (countHosts) {
        const normalised = hostNormalizers ? hostNormalizers.normalize(url) : url;
        const h = normalised === null ? null : hostOf(normalised);
        if (h === null) {
          count(counters, 'MALFORMED_URL');
          continue;
        }
        const key = byDomain && !hostLimitConf ? domainOf(h) : h;
        host = hostIds.get(key) ?? -1;
        if (host < 0) {
          host = hostNames.push(key) - 1;
          hostIds.set(key, host);
        }
      }
      runs.add({ url, sort, host });
    }
    counters.records_scanned = scanned;
    counters.candidates = runs.size;
    if (hostLimitConf && !opts.signal?.aborted) hostLimits = await loadHostLimits(ctx.storage, hostLimitConf, hostNames, batchSize, log);

    // 2. allocate: best first into segments, capped by topN and generate.max.count
    const allocation = new SegmentAllocation({
      topN, maxCount, maxNumSegments, counters,
      onHostOverflow: hostOverflow,
      maxCountOf: perHostCount ? (h) => hostLimits.maxCount.get(hostNames[h]!) ?? maxCount : undefined,
    });
    for await (const c of runs.sorted()) {
      if (opts.signal?.aborted || !allocation.open) break;
      await slice.tick();
      allocation.offer(c);
    }
    const segmentsToWrite = allocation.segments.filter((s) => s.length > 0);
    counters.selected = segmentsToWrite.reduce((n, s) => n + s.length, 0);

    if (opts.signal?.aborted) {
      count(counters, 'stopped');
      counters.selected = 0;
      log.warn('Generator: stopped before writing a segment; nothing generated');
      await session.abort();
      return finish();
    }
    if (counters.selected === 0) {
      const reason = noSelectionReason(counters);
      counters[reason.counter] = 1;
      log.warn(`Generator: 0 records selected for fetching, exiting ... (${reason.message})`);
      await session.abort();
      return finish();
    }

    // 3. write each segment's crawl_generate (staged, then renamed into place)
    const partitioner = new URLPartitioner(conf.getString('partition.url.mode') as PartitionMode, numFetchers, partitionNormalizers, (m) => log.warn(m));
    for (const urls of segmentsToWrite) {
      await partitioner.prepare(urls);
      const seg = await writeSegment(ctx, db, urls, { segmentsDir: args.segmentsDir, numFetchers, partitioner, batchSize, schedule, curTime, genTime, emit, counters, fetchDelay: hostLimits.fetchDelay });
      created.push(seg.path);
      log.info(`Generator: segment: ${seg.path} (${urls.length} URLs)`);
      await seg.close();
    }
    counters.segments = created.length;

    // 4. mark the selected URLs in the CrawlDb (generate.update.crawldb), committed last
    if (updateDb) {
      for (const urls of segmentsToWrite) {
        for (let i = 0; i < urls.length; i += batchSize) {
          const slice = urls.slice(i, i + batchSize);
          const datums = await db.getMany(slice);
          const marked = [...datums].map(([url, d]) => ({ url, value: { ...d, metaData: { ...d.metaData, [DatumMeta.GENERATE_TIME_KEY]: [String(genTime)] } } }));
          await session.put(marked);
          emit({ type: 'progress', stage: 'generate', done: i + slice.length, total: urls.length, counters: { ...counters } });
        }
      }
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

  function finish(): GenerateResult {
    const ms = Date.now() - started;
    log.info(`Generator: finished, ${counters.selected ?? 0} URLs selected in ${created.length} segment(s), elapsed: ${ms} ms`);
    emit({ type: 'stage-end', stage: 'generate', counters: { ...counters }, ms });
    return { counters, segments: created };
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
