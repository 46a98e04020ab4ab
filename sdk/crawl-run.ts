/**
 * createNutch().crawl(): the crawl loop run on the crawler's context, its progress events as an async
 * iterable and its summary as `result`. Leaving the `for await` early (break, throw) is a polite stop,
 * as a first SIGINT.
 */
import type { NutchContext } from '../core/crawl/context.js';
import type { Counters, ProgressEvent, StageOptions } from '../core/crawl/progress.js';
import type { CrawlSummaryCounters } from '../core/crawl/counter-names.js';
import { EventChannel } from '../core/crawl/event-channel.js';
import { crawl as crawlLoop, type CrawlArgs } from '../core/crawl/crawl/crawl.js';
import { collectWhenGrown, existingGc } from '../core/crawl/crawl/collect-garbage.js';
import { defaultStages } from '../core/crawl/stages.js';

export interface CrawlOptions extends Omit<CrawlArgs, 'crawlDir' | 'seedDir' | 'rounds' | 'sizeFetchlist' | 'numThreads' | 'index'> {
  /** Seed URLs injected before the first round. */
  seeds?: string[];
  /** A seed directory or file, as bin/crawl -s. */
  seedDir?: string;
  rounds?: number;
  topN?: number;
  threads?: number;
  /** Index each round (default true). */
  index?: boolean;
  signal?: AbortSignal;
}

/** An async iterable of progress events; `result` resolves with the crawl's summary counters. */
export interface CrawlRun extends AsyncIterable<ProgressEvent> {
  /** The crawl's summary: `<stage>.<counter>` summed over the rounds, `rounds`, `crawldb.<status>`, `time.<stage>.ms`. */
  readonly result: Promise<CrawlSummaryCounters>;
}

export function startCrawl(
  ctx: NutchContext,
  crawlDir: string,
  opts: CrawlOptions,
  /** The call's stage options with the crawler's own signal (createNutch's callOpts). */
  stageOptions: (signal: AbortSignal, onProgress: (e: ProgressEvent) => void) => StageOptions,
  seedDir: string | undefined,
): CrawlRun {
  const channel = new EventChannel<ProgressEvent>();
  const stopper = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, stopper.signal]) : stopper.signal;
  const result = ctx.activity.run(stageOptions(signal, (e) => channel.push(e)), (o) => crawlLoop(ctx, defaultStages, {
    ...opts,
    crawlDir,
    seedDir,
    rounds: opts.rounds ?? 1,
    sizeFetchlist: opts.topN,
    numThreads: opts.threads,
    index: opts.index ?? true,
  }, { ...o, collectGarbage: collectWhenGrown(existingGc()) }));
  result.then(() => channel.end(), (err) => channel.end(err));
  result.catch(() => {});
  const events = (): AsyncIterator<ProgressEvent> => {
    const it = channel[Symbol.asyncIterator]();
    return {
      next: () => it.next(),
      // `break` (or a throw) out of `for await` means "stop": a polite stop, as a first SIGINT. The
      // loop goes on once what was done is committed, so the app may close() or crawl() again.
      async return() {
        stopper.abort();
        await it.return?.();
        await result.catch(() => {});
        return { value: undefined, done: true };
      },
    };
  };
  return { result, [Symbol.asyncIterator]: events };
}
