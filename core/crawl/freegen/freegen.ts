/**
 * freegen, as Nutch's FreeGenerator: a new segment straight from text files of URLs (seed format:
 * URL, then TAB-separated key=value metadata), without a CrawlDb. Lines are checked as inject checks
 * them (file:line in every skip message); -normalize / -filter run the URL normalizers (scope inject)
 * and filters; each URL once (the first line wins, as FreeGenerator's reducer keeps one); the injected
 * score and the scoring filters' injectedScore set the score. crawl_generate is split into
 * -numFetchers partitions by partition.url.mode, written to a staged segment published at the end.
 */
import { createCrawlDatum, CrawlStatus } from '../../model/crawl-datum.js';
import { ExternalSort } from '../../storage/external-sort.js';
import type { Keyed, SegmentPartWriter } from '../../storage/interfaces.js';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import { TimeSlice } from '../../storage/yield.js';
import type { NutchContext } from '../context.js';
import { normalizeThenFilter } from '../../extension-points/normalize-then-filter.js';
import { count, type Counters, type StageOptions } from '../progress.js';
import { listSeedFiles, readSeedLines } from '../inject/seed-files.js';
import { applySeedMetadata, malformedReason, splitSeedLine } from '../inject/seed-line.js';
import { URLPartitioner, type PartitionMode } from '../generate/url-partitioner.js';
import { generatedDatum } from '../generate/selector.js';
import { decodeDatum, encodeDatum } from '../mergedb/datum-codec.js';

export interface FreeGenArgs {
  /** A file or a directory of files of URLs. */
  inputDir: string;
  segmentsDir: string;
  filter?: boolean;
  normalize?: boolean;
  numFetchers?: number;
}

const LINE_CAP = 1024 * 1024;

export async function freegen(ctx: NutchContext, args: FreeGenArgs, opts: StageOptions = {}): Promise<{ counters: Counters; segment: string | null }> {
  const { conf, log } = ctx;
  const counters: Counters = { urls_generated: 0 };
  const numFetchers = Math.max(1, args.numFetchers ?? 1);
  const maxUrlLength = conf.getInt('db.max.outlink.length');
  const scoreInjected = conf.getFloat('db.score.injected');
  const defaultInterval = conf.getInt('db.fetch.interval.default');
  const normalizers = args.normalize ? await ctx.extensions.urlNormalizers('inject') : null;
  const filters = args.filter ? await ctx.extensions.urlFilters() : null;
  const rewrite = normalizeThenFilter(normalizers, filters);
  const scoring = await ctx.extensions.scoringFilters();
  const schedule = await ctx.extensions.fetchSchedule();
  const files = listSeedFiles(args.inputDir, (m) => log.warn(m));
  const now = Date.now();
  const sort = new ExternalSort({ columns: 1 });
  const slice = new TimeSlice();
  const skip = (counter: string, culprit: string, reason: string) => {
    count(counters, counter);
    log.warn(`freegen: skipping ${culprit}: ${reason}`);
  };
  try {
    outer: for (const file of files) {
      for await (const seed of readSeedLines(file, LINE_CAP)) {
        if (opts.signal?.aborted) break outer;
        await slice.tick();
        const culprit = `${seed.file}:${seed.line}`;
        if (seed.text === null) { skip('urls_malformed', culprit, 'line is not valid UTF-8 text'); continue; }
        if (seed.tooLong) { skip('urls_too_long', culprit, `line longer than ${LINE_CAP} bytes`); continue; }
        const parsed = splitSeedLine(seed.text);
        if (!parsed) continue;
        if (parsed.url.length > maxUrlLength) { skip('urls_too_long', culprit, `URL longer than db.max.outlink.length (${parsed.url.length} > ${maxUrlLength})`); continue; }
        const bad = malformedReason(parsed.url);
        if (bad) { skip('urls_malformed', culprit, `malformed URL ${parsed.url.slice(0, 200)} (${bad})`); continue; }
        const url = rewrite(parsed.url);
        if (url === null) { count(counters, 'urls_filtered'); continue; }
        const datum = schedule.initializeSchedule(url, createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED, fetchTime: now, score: scoreInjected, fetchInterval: defaultInterval }));
        for (const problem of applySeedMetadata(parsed.metadata, datum)) skip('metadata_invalid', culprit, `${problem}; ignored`);
        scoring.injectedScore(url, datum);
        sort.add([url, encodeDatum(datum)]);
      }
    }
    if (opts.signal?.aborted) return { counters: { ...counters, stopped: 1 }, segment: null };
    if (sort.size === 0) {
      log.warn('freegen: no URLs to generate; no segment written');
      return { counters, segment: null };
    }

    const partitionNormalizers = args.normalize ? await ctx.extensions.urlNormalizers('partition') : null;
    const partitioner = new URLPartitioner(conf.getString('partition.url.mode') as PartitionMode, numFetchers, partitionNormalizers, (m) => log.warn(m));
    const staged = await ctx.storage.createStagedSegment(args.segmentsDir);
    try {
      const writers: SegmentPartWriter<CrawlDatum>[] = [];
      const pending: Keyed<CrawlDatum>[][] = [];
      for (let p = 0; p < numFetchers; p++) {
        writers.push(await staged.openWriter('crawl_generate', p, { totalPartitions: numFetchers }));
        pending.push([]);
      }
      const batchSize = conf.getInt('storage.batch.size', 1000);
      let batch: Keyed<CrawlDatum>[] = [];
      const place = async () => {
        await partitioner.prepare(batch.map((r) => r.url));
        for (const r of batch) pending[partitioner.partition(r.url)]!.push(r);
        batch = [];
        for (let p = 0; p < numFetchers; p++) {
          if (pending[p]!.length >= batchSize) {
            await writers[p]!.append(pending[p]!);
            pending[p] = [];
          }
        }
      };
      let last: string | null = null;
      for (const [url, encoded] of sort.sorted()) {
        if (url === last) { count(counters, 'urls_duplicate'); continue; }
        last = url;
        batch.push({ url, value: generatedDatum(url, decodeDatum(encoded as string), schedule, now, now) });
        count(counters, 'urls_generated');
        if (batch.length >= batchSize) await place();
        await slice.tick();
      }
      await place();
      for (let p = 0; p < numFetchers; p++) {
        if (pending[p]!.length) await writers[p]!.append(pending[p]!);
        await writers[p]!.finish();
        await writers[p]!.close();
      }
      const seg = await staged.publish();
      await seg.close();
      log.info(`freegen: segment ${seg.path} with ${counters.urls_generated} URLs`);
      return { counters, segment: seg.path };
    } catch (err) {
      await staged.discard();
      throw err;
    }
  } finally {
    sort.close();
  }
}
