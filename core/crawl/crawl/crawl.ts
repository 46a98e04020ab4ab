/**
 * The crawl loop, as Nutch's bin/crawl: inject the seeds (when given), then per round generate, fetch,
 * parse (unless the fetcher parsed), updatedb, invertlinks, dedup and — with `index` — index and clean.
 * Stops when generate selects nothing (or waits and retries with `waitMs`), when `.STOP` appears in the
 * crawl directory, after `rounds` rounds (-1 = no limit), or politely on abort. The parse workers end
 * with each round's fetch and parse; `collectGarbage`, when given, runs after every stage.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { NutchContext } from '../context.js';
import { count, type Counters, type ProgressEvent, type StageName, type StageOptions } from '../progress.js';
import { crawlLayout } from './crawl-layout.js';
import { closeParsePool } from '../../parse/parsers.js';
import type { CrawlStages } from './crawl-stages.js';

export interface CrawlArgs {
  crawlDir: string;
  /** Seed directory or file (bin/crawl -s). */
  seedDir?: string;
  /** Rounds to run; -1 = until nothing is left to generate or a .STOP file appears. */
  rounds: number;
  /** Index each round's segment and clean the index (bin/crawl -i). */
  index?: boolean;
  /** Fetcher threads (bin/crawl --num-threads). */
  numThreads?: number;
  /** URLs per round (bin/crawl --size-fetchlist, generate -topN). */
  sizeFetchlist?: number;
  /** Fetch time limit in minutes (bin/crawl --time-limit-fetch). */
  timeLimitFetch?: number;
  /** Fetch lists per segment (bin/crawl --num-fetchers). */
  numFetchers?: number;
  /** dedup -group (bin/crawl --dedup-group). */
  dedupGroup?: 'none' | 'host' | 'domain';
  /** When generate selects nothing, wait this long and retry instead of stopping (bin/crawl -w). */
  waitMs?: number;
}

export interface CrawlLoopOptions extends StageOptions {
  /** Called after each stage: a full garbage collection (collect-garbage.ts), when the caller allows one. */
  collectGarbage?: () => void;
}

/** bin/crawl's defaults. */
export const CRAWL_DEFAULTS = { sizeFetchlist: 50_000, timeLimitFetch: 180, numThreads: 50, numFetchers: 1, dedupGroup: 'none' as const };

export async function crawl(ctx: NutchContext, stages: CrawlStages, args: CrawlArgs, opts: CrawlLoopOptions = {}): Promise<Counters> {
  const layout = crawlLayout(args.crawlDir);
  const summary: Counters = {};
  const started = Date.now();
  const signal = opts.signal;
  const emit = (e: ProgressEvent) => opts.onProgress?.(e);

  const run = async <A>(stage: StageName, fn: (ctx: NutchContext, a: A, o: StageOptions) => Promise<Counters>, a: A, round?: number): Promise<Counters> => {
    const t0 = Date.now();
    const counters = await fn(ctx, a, { signal, onProgress: (e) => emit(round !== undefined && (e.type === 'stage-start' || e.type === 'stage-end') ? { ...e, round } : e) });
    for (const [k, v] of Object.entries(counters)) count(summary, `${stage}.${k}`, v);
    count(summary, `time.${stage}.ms`, Date.now() - t0);
    opts.collectGarbage?.();
    return counters;
  };

  emit({ type: 'stage-start', stage: 'crawl', args: { ...args } });
  if (args.seedDir) await run('inject', stages.inject, { crawlDb: layout.crawlDb, urlDir: args.seedDir });

  const threads = args.numThreads ?? ctx.conf.getInt('fetcher.threads.fetch', CRAWL_DEFAULTS.numThreads);
  if (args.timeLimitFetch !== undefined) ctx.conf.set('fetcher.timelimit.mins', args.timeLimitFetch, { layer: 'cli', source: 'crawl --time-limit-fetch' });
  const parseInFetch = ctx.conf.getBoolean('fetcher.parse');

  for (let round = 1; args.rounds < 0 || round <= args.rounds; round++) {
    if (signal?.aborted) break;
    if (existsSync(join(args.crawlDir, '.STOP'))) {
      ctx.log.info(`.STOP file found in ${args.crawlDir}: escaping loop`);
      count(summary, 'stopped.by.file');
      break;
    }
    let segments: string[] = [];
    await run('generate', async (c, a: Parameters<CrawlStages['generate']>[1], o) => {
      const generated = await stages.generate(c, a, o);
      segments = generated.segments;
      return generated.counters;
    }, {
      crawlDb: layout.crawlDb,
      segmentsDir: layout.segmentsDir,
      topN: args.sizeFetchlist ?? CRAWL_DEFAULTS.sizeFetchlist,
      numFetchers: args.numFetchers ?? CRAWL_DEFAULTS.numFetchers,
      noFilter: true,
    }, round);
    if (segments.length === 0) {
      if (args.waitMs && args.waitMs > 0 && !signal?.aborted) {
        ctx.log.info(`Generate selected nothing; waiting ${args.waitMs} ms before retrying`);
        await sleep(args.waitMs, signal);
        round--;
        continue;
      }
      ctx.log.info('Generate returned 1 (no new segments created): escaping loop, no more URLs to fetch now');
      count(summary, 'rounds.nothing.to.generate');
      break;
    }
    count(summary, 'rounds');
    for (const segment of segments) {
      if (signal?.aborted) break;
      await run('fetch', stages.fetch, { segment, threads }, round);
      if (signal?.aborted) break;
      if (!parseInFetch) await run('parse', stages.parse, { segment }, round);
      await closeParsePool(ctx);
      if (signal?.aborted) break;
      await run('updatedb', stages.updatedb, { crawlDb: layout.crawlDb, segments: [segment] }, round);
      await run('invertlinks', stages.invertlinks, { linkDb: layout.linkDb, segments: [segment], noNormalize: true, noFilter: true }, round);
    }
    if (signal?.aborted) break;
    await run('dedup', stages.dedup, { crawlDb: layout.crawlDb, group: args.dedupGroup ?? CRAWL_DEFAULTS.dedupGroup }, round);
    if (args.index) {
      await run('index', stages.index, { crawlDb: layout.crawlDb, linkDb: layout.linkDb, segments, crawlDir: args.crawlDir }, round);
      await run('clean', stages.clean, { crawlDb: layout.crawlDb, crawlDir: args.crawlDir }, round);
    }
  }
  if (signal?.aborted) count(summary, 'stopped.by.signal');
  summary['time.crawl.ms'] = Date.now() - started;
  emit({ type: 'stage-end', stage: 'crawl', counters: summary, ms: Date.now() - started });
  return summary;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
