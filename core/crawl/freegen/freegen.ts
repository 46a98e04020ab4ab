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
import { TimeSlice } from '../../storage/yield.js';
import type { NutchContext } from '../context.js';
import type { FetchSchedule } from '../../extension-points/fetch-schedule.js';
import type { ScoringFilters } from '../../extension-points/scoring-filter.js';
import { normalizeThenFilter, type UrlRewrite } from '../../extension-points/normalize-then-filter.js';
import type { Counters, StageOptions } from '../progress.js';
import { StageRun } from '../stage-run.js';
import { listSeedFiles, readSeedLines, type SeedLine } from '../inject/seed-files.js';
import { applySeedMetadata, malformedReason, splitSeedLine } from '../inject/seed-line.js';
import { URLPartitioner, type PartitionMode } from '../generate/url-partitioner.js';
import { generatedDatum } from '../generate/selector.js';
import { decodeDatum, encodeDatum } from '../mergedb/datum-codec.js';
import { CrawlGenerateWriter } from './crawl-generate-writer.js';

export interface FreeGenArgs {
  /** A file or a directory of files of URLs. */
  inputDir: string;
  segmentsDir: string;
  filter?: boolean;
  normalize?: boolean;
  numFetchers?: number;
}

const LINE_CAP = 1024 * 1024;

interface FreeGenSettings {
  maxUrlLength: number;
  scoreInjected: number;
  defaultInterval: number;
  rewrite: UrlRewrite;
  scoring: ScoringFilters;
  schedule: FetchSchedule;
  now: number;
}

export async function freegen(ctx: NutchContext, args: FreeGenArgs, opts: StageOptions = {}): Promise<{ counters: Counters; segment: string | null }> {
  const run = new StageRun(ctx, 'freegen', opts, { urls_generated: 0 });
  const { conf } = ctx;
  run.start({ inputDir: args.inputDir, segmentsDir: args.segmentsDir });
  const s: FreeGenSettings = {
    maxUrlLength: conf.getInt('db.max.outlink.length'),
    scoreInjected: conf.getFloat('db.score.injected'),
    defaultInterval: conf.getInt('db.fetch.interval.default'),
    rewrite: normalizeThenFilter(args.normalize ? await ctx.extensions.urlNormalizers('inject') : null, args.filter ? await ctx.extensions.urlFilters() : null),
    scoring: await ctx.extensions.scoringFilters(),
    schedule: await ctx.extensions.fetchSchedule(),
    now: Date.now(),
  };
  const sort = new ExternalSort({ columns: 1 });
  let segment: string | null = null;
  try {
    await readSeeds(run, listSeedFiles(args.inputDir, (m) => run.log.warn(m)), sort, s);
    if (run.stopping) run.count('stopped');
    else if (sort.size === 0) run.log.warn('freegen: no URLs to generate; no segment written');
    else segment = await writeSegment(ctx, run, args, sort, s);
  } finally {
    sort.close();
  }
  const counters = run.finish(segment ? () => `freegen: segment ${segment} with ${run.counters.urls_generated} URLs` : undefined);
  return { counters, segment };
}

/** 1. Every seed line checked, rewritten and scored into the sort (by URL), until a polite stop. */
async function readSeeds(run: StageRun, files: string[], sort: ExternalSort, s: FreeGenSettings): Promise<void> {
  const slice = new TimeSlice();
  for (const file of files) {
    for await (const seed of readSeedLines(file, LINE_CAP)) {
      if (run.stopping) return;
      await slice.tick();
      const seeded = seedUrl(run, seed, s);
      if (seeded === null) continue;
      const { url, metadata } = seeded;
      const datum = s.schedule.initializeSchedule(url, createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED, fetchTime: s.now, score: s.scoreInjected, fetchInterval: s.defaultInterval }));
      for (const problem of applySeedMetadata(metadata, datum)) skip(run, 'metadata_invalid', seed, `${problem}; ignored`);
      s.scoring.injectedScore(url, datum);
      sort.add([url, encodeDatum(datum)]);
    }
  }
}

/** A seed line's URL after the checks and -normalize / -filter, and its metadata; or null (skipped and counted). */
function seedUrl(run: StageRun, seed: SeedLine, s: FreeGenSettings): { url: string; metadata: string } | null {
  if (seed.text === null) return skip(run, 'urls_malformed', seed, 'line is not valid UTF-8 text');
  if (seed.tooLong) return skip(run, 'urls_too_long', seed, `line longer than ${LINE_CAP} bytes`);
  const parsed = splitSeedLine(seed.text);
  if (!parsed) return null;
  if (parsed.url.length > s.maxUrlLength) return skip(run, 'urls_too_long', seed, `URL longer than db.max.outlink.length (${parsed.url.length} > ${s.maxUrlLength})`);
  const bad = malformedReason(parsed.url);
  if (bad) return skip(run, 'urls_malformed', seed, `malformed URL ${parsed.url.slice(0, 200)} (${bad})`);
  const url = s.rewrite(parsed.url);
  if (url === null) {
    run.count('urls_filtered');
    return null;
  }
  return { url, metadata: parsed.metadata };
}

function skip(run: StageRun, counter: string, seed: SeedLine, reason: string): null {
  run.count(counter);
  run.log.warn(`freegen: skipping ${seed.file}:${seed.line}: ${reason}`);
  return null;
}

/** 2. The sorted URLs, each once, into a staged segment's crawl_generate partitions; published at the end. */
async function writeSegment(ctx: NutchContext, run: StageRun, args: FreeGenArgs, sort: ExternalSort, s: FreeGenSettings): Promise<string> {
  const numFetchers = Math.max(1, args.numFetchers ?? 1);
  const partitionNormalizers = args.normalize ? await ctx.extensions.urlNormalizers('partition') : null;
  const partitioner = new URLPartitioner(run.conf.getString('partition.url.mode') as PartitionMode, numFetchers, partitionNormalizers, (m) => run.log.warn(m));
  const staged = await ctx.storage.createStagedSegment(args.segmentsDir);
  try {
    const out = await CrawlGenerateWriter.open(staged, numFetchers, partitioner, run.conf.getInt('storage.batch.size', 1000));
    const slice = new TimeSlice();
    let last: string | null = null;
    for (const [url, encoded] of sort.sorted()) {
      if (url === last) { run.count('urls_duplicate'); continue; }
      last = url;
      await out.add({ url, value: generatedDatum(url, decodeDatum(encoded as string), s.schedule, s.now, s.now) });
      run.count('urls_generated');
      await slice.tick();
    }
    await out.finish();
    const seg = await staged.publish();
    await seg.close();
    return seg.path;
  } catch (err) {
    await staged.discard();
    throw err;
  }
}
