/**
 * The crawl loop, as Nutch's bin/crawl: inject the seeds (when given), then per round generate, fetch,
 * parse (unless the fetcher parsed), updatedb, invertlinks, dedup and — with `index` — index and clean.
 * Stops when generate selects nothing (or waits and retries with `waitMs`), when `.STOP` appears in the
 * crawl directory, after `rounds` rounds (-1 = no limit), or politely on abort. The parse workers live
 * from round to round and end with the crawl (they start with the first fetch that a parse stage
 * follows, so their start-up overlaps it); `collectGarbage`, when given, runs after every stage
 * (and in the parse workers after a round's parse, once they have parsed WORKER_GC_MIN_PAGES pages).
 *
 * With `-i` and crawl.index.overlap (default false), a round's index and clean run while the next round
 * generates, fetches and parses; that round's updatedb waits for them, so the index sees the CrawlDb
 * bin/crawl's strict sequence would show it (nothing else writes the CrawlDb in between) and a round's
 * segment is marked done only after its clean, as before: a kill in the overlap leaves two open
 * segments, which the next crawl finishes in order (segment-state.ts). docs/performance.md says why.
 *
 * Unlike bin/crawl, a crawl whose segments a stopped or killed run left unfinished (not fetched,
 * parsed, merged into the CrawlDb, inverted, deduplicated or indexed: segment-state.ts) finishes them
 * as its first round instead of generating a new one holding the same URLs, so a re-run never ends
 * with a merged segment missing from the LinkDb or the index. The agent name is checked before
 * anything is written.
 */
import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import { checkAgentName, withConfiguration, type NutchContext } from '../context.js';
import { NutchError } from '../../errors.js';
import { count, type Counters, type ProgressEvent, type StageName, type StageOptions } from '../progress.js';
import { crawlLayout, type CrawlLayout } from './crawl-layout.js';
import { closeParsePool, runningParsePool } from '../../parse/parsers.js';
import { startParseWorkers } from '../parse/segment-parser.js';
import { resolveIndexWriters } from '../index/resolve-index-writers.js';
import type { CrawlStages } from './crawl-stages.js';
import { CRAWL_STATE, CRAWL_STATE_KEY, markRoundDone, readSegmentState, RESUME_REASON, resumeStages, unfinishedSegments, type SegmentResumePoint, type UnfinishedSegment } from './segment-state.js';
import { storeExists } from '../existing-stores.js';
import { crawlDbSummary } from './crawldb-summary.js';
import { sleep } from '../abortable-sleep.js';
import { sitemapHostsOf } from '../hostdb/sitemap-hosts.js';

export interface CrawlArgs {
  crawlDir: string;
  /** Seed directory or file (bin/crawl -s). */
  seedDir?: string;
  /** Directory or file of sitemap URLs or host names, read into the CrawlDb after inject (bin/crawl -sm). */
  sitemapDir?: string;
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
  /** bin/crawl --hostdbupdate: updatehostdb -crawldb into <crawl>/hostdb at the start of each round. */
  hostDbUpdate?: boolean;
  /** bin/crawl --hostdbgenerate: generate -hostdb <crawl>/hostdb (once the HostDb exists). */
  hostDbGenerate?: boolean;
  /** bin/crawl --sitemaps-from-hostdb: read the HostDb hosts' sitemaps in round 1 (once) or every round (always). */
  sitemapsFromHostDb?: 'never' | 'once' | 'always';
}

export interface CrawlLoopOptions extends StageOptions {
  /** Called after each stage: a full garbage collection (collect-garbage.ts), when the caller allows one. */
  collectGarbage?: () => void;
}

/** bin/crawl's defaults. */
export const CRAWL_DEFAULTS = { sizeFetchlist: 50_000, timeLimitFetch: 180, numThreads: 50, numFetchers: 1, dedupGroup: 'none' as const };

/** Pages the parse workers parse before the crawl loop has them collect garbage (collectParseWorkers). */
export const WORKER_GC_MIN_PAGES = 200;

/** The stages of a round in order; `stopped.in.<stage>` in the summary names the one a stop hit. */
export const ROUND_STAGES: readonly StageName[] = ['updatehostdb', 'sitemap', 'generate', 'fetch', 'parse', 'updatedb', 'invertlinks', 'dedup', 'index', 'clean'];

/**
 * Summary counters: `rounds`; `<stage>.<counter>` summed over the rounds (deltas: pages fetched, URLs
 * added, …); `crawldb.total` and `crawldb.<status>` = the CrawlDb at the end, as readdb -stats counts
 * it (not summed: updatedb's per-status counts describe the whole CrawlDb after each round); on a
 * polite stop `stopped.by.signal`, `stopped.round` and `stopped.in.<stage>`; `resumed.<stage>` per
 * segment a stopped crawl left that round 1 finished from that stage.
 */
export async function crawl(ctx: NutchContext, stages: CrawlStages, args: CrawlArgs, opts: CrawlLoopOptions = {}): Promise<Counters> {
  // before inject or generate writes anything (Nutch checks only in the fetcher, after generate)
  checkAgentName(ctx.conf);
  // As the agent name: a crawl that cannot index fails before round 1, not after a round's fetch.
  if (args.index) resolveIndexWriters(ctx);
  return new CrawlLoop(crawlContext(ctx, args), stages, args, opts).run();
}

/**
 * The crawl's own view of the context: bin/crawl's --time-limit-fetch is passed to the fetcher as its
 * -D, here a configuration layered over the crawler's, so the crawler's own Configuration is untouched.
 */
function crawlContext(ctx: NutchContext, args: CrawlArgs): NutchContext {
  if (args.timeLimitFetch === undefined) return ctx;
  const conf = ctx.conf.derive();
  conf.set('fetcher.timelimit.mins', args.timeLimitFetch, { layer: 'cli', source: 'crawl --time-limit-fetch' });
  return withConfiguration(ctx, conf);
}

type Position = { stage: StageName; round?: number };

class CrawlLoop {
  private readonly layout: CrawlLayout;
  private readonly summary: Counters = {};
  private readonly started = Date.now();
  private readonly signal: AbortSignal | undefined;
  private readonly threads: number;
  private current: Position | undefined;
  private stoppedAt: Position | null = null;
  /** The parse pool's `stats.parsed` when its workers last collected garbage. */
  private parsedAtCollection = 0;
  /** The previous round's index, clean and done mark, running beside this round (crawl.index.overlap). */
  private roundEnd: Promise<void> | null = null;
  /** Its failure, seen by the next stage that starts (the round end is awaited only before updatedb). */
  private roundEndFailure: { error: unknown } | null = null;
  private readonly overlap: boolean;

  constructor(private readonly ctx: NutchContext, private readonly stages: CrawlStages, private readonly args: CrawlArgs, private readonly opts: CrawlLoopOptions) {
    this.layout = crawlLayout(args.crawlDir);
    this.signal = opts.signal;
    this.threads = args.numThreads ?? ctx.conf.getInt('fetcher.threads.fetch', CRAWL_DEFAULTS.numThreads);
    this.overlap = !!args.index && overlapAllowed(ctx, args);
  }

  private get stopping(): boolean {
    return !!this.signal?.aborted;
  }

  private emit(e: ProgressEvent): void {
    this.opts.onProgress?.(e);
  }

  async run(): Promise<Counters> {
    const { summary, signal } = this;
    const onAbort = () => (this.stoppedAt ??= this.current ?? null);
    signal?.addEventListener('abort', onAbort, { once: true });
    this.emit({ type: 'stage-start', stage: 'crawl', args: { ...this.args } });
    try {
      await this.seed();
      try {
        await this.rounds();
      } finally {
        // a failed or stopped round lets the previous round's end finish (it never rejects: see rounds())
        await this.roundEnd;
      }
      await this.previousRoundEnd();
      this.current = undefined;
      if (this.args.index) warnIfNoAnchors(this.ctx, summary);
      if (this.stopping) this.countStop();
      // the CrawlDb as readdb -stats counts it (skipped after a stop: a full scan would delay the exit)
      else Object.assign(summary, await crawlDbSummary(this.ctx, this.layout.crawlDb));
    } finally {
      signal?.removeEventListener('abort', onAbort);
      await closeParsePool(this.ctx);
    }
    summary['time.crawl.ms'] = Date.now() - this.started;
    this.emit({ type: 'stage-end', stage: 'crawl', counters: summary, ms: Date.now() - this.started });
    return summary;
  }

  /**
   * One stage of the loop: its counters summed into the summary, its time counted. A stage of the
   * previous round's end running beside this round (`beside`) is not where a stop is reported.
   */
  private async stage<A>(stage: StageName, fn: (ctx: NutchContext, a: A, o: StageOptions) => Promise<Counters>, a: A, round?: number, beside = false): Promise<Counters> {
    if (this.roundEndFailure) throw this.roundEndFailure.error;
    const t0 = Date.now();
    if (!beside) this.current = { stage, round };
    const counters = await fn(this.ctx, a, { signal: this.signal, onProgress: (e) => this.emit(round !== undefined && (e.type === 'stage-start' || e.type === 'stage-end') ? { ...e, round } : e) });
    for (const [k, v] of Object.entries(counters)) {
      if (stage === 'updatedb' && k.startsWith('db_')) continue;
      count(this.summary, `${stage}.${k}`, v);
    }
    count(this.summary, `time.${stage}.ms`, Date.now() - t0);
    this.opts.collectGarbage?.();
    return counters;
  }

  /** The seeds, then (as bin/crawl: "Injecting sitemaps") the sitemaps, before the first round. */
  private async seed(): Promise<void> {
    const { args, layout, stages } = this;
    if (args.seedDir) await this.stage('inject', stages.inject, { crawlDb: layout.crawlDb, urlDir: args.seedDir });
    if (args.sitemapDir && !this.stopping) {
      if (!stages.sitemap) throw new NutchError('NUTCH_USAGE', 'crawl: a sitemap directory was given but the stage table has no sitemap stage.');
      await this.stage('sitemap', stages.sitemap, { crawlDb: layout.crawlDb, sitemapUrls: args.sitemapDir, threads: this.threads }, undefined);
    }
  }

  private async rounds(): Promise<void> {
    const { args, ctx, summary } = this;
    let resume: UnfinishedSegment[] | null = await unfinishedSegments(ctx, this.layout.crawlDb, this.layout.segmentsDir);
    if (resume.length === 0) resume = null;
    for (let round = 1; args.rounds < 0 || round <= args.rounds; round++) {
      if (this.stopping) break;
      if (existsSync(join(args.crawlDir, '.STOP'))) {
        ctx.log.info(`.STOP file found in ${args.crawlDir}: escaping loop`);
        count(summary, 'stopped.by.file');
        break;
      }
      const segments = resume ? this.resumed(resume, round) : await this.generate(round);
      if (this.stopping) break;
      if (segments.length === 0) {
        await this.previousRoundEnd();
        if (args.waitMs && args.waitMs > 0) {
          ctx.log.info(`Generate selected nothing; waiting ${args.waitMs} ms before retrying`);
          await sleep(args.waitMs, this.signal);
          round--;
          continue;
        }
        ctx.log.info('Generate returned 1 (no new segments created): escaping loop, no more URLs to fetch now');
        count(summary, 'rounds.nothing.to.generate');
        break;
      }
      count(summary, 'rounds');
      const from = new Map(segments.map((segment) => [segment, resume?.find((r) => r.segment === segment)?.from ?? 'fetch']));
      const wasResumed = resume !== null;
      resume = null;
      if (!(await this.finishSegments(segments, from, round, wasResumed))) break;
      await this.stage('dedup', this.stages.dedup, { crawlDb: this.layout.crawlDb, group: args.dedupGroup ?? CRAWL_DEFAULTS.dedupGroup }, round);
      if (this.stopping) break;
      const end = this.endRound(segments, round, this.overlap);
      if (!this.overlap) {
        await end;
        continue;
      }
      // caught now: a failure is rethrown by the next stage or the wait before updatedb, never unhandled
      this.roundEnd = end.catch((error: unknown) => {
        this.roundEndFailure ??= { error };
      });
    }
  }

  /** Waits for the previous round's end when it runs beside this round; its failure fails the crawl here. */
  private async previousRoundEnd(): Promise<void> {
    const end = this.roundEnd;
    this.roundEnd = null;
    if (end) await end;
    if (this.roundEndFailure) throw this.roundEndFailure.error;
  }

  private resumed(resume: UnfinishedSegment[], round: number): string[] {
    for (const { segment, from } of resume) {
      this.ctx.log.warn(`Segment ${basename(segment)} was left unfinished by a stopped crawl (${RESUME_REASON[from]}): finishing it in round ${round} (${resumeStages(from, !!this.args.index)}) instead of generating a new segment`, { segment });
      count(this.summary, `resumed.${from}`);
    }
    return resume.map((r) => r.segment);
  }

  /** Runs --hostdbupdate and --sitemaps-from-hostdb for a round; true when the HostDb exists afterwards. */
  private async roundStartHostDb(round: number): Promise<boolean> {
    const { args, ctx, layout, stages } = this;
    if (args.hostDbUpdate && (await storeExists(ctx, 'crawldb', layout.crawlDb))) {
      if (!stages.updatehostdb) throw new NutchError('NUTCH_USAGE', 'crawl --hostdbupdate: the stage table has no updatehostdb stage.');
      await this.stage('updatehostdb', stages.updatehostdb, { hostDb: layout.hostDb, crawlDb: layout.crawlDb }, round);
      if (this.stopping) return false;
    }
    const exists = await storeExists(ctx, 'hostdb', layout.hostDb);
    const freq = args.sitemapsFromHostDb ?? 'never';
    if (exists && (freq === 'always' || (freq === 'once' && round === 1))) {
      if (!stages.sitemap) throw new NutchError('NUTCH_USAGE', 'crawl --sitemaps-from-hostdb: the stage table has no sitemap stage.');
      await this.stage('sitemap', stages.sitemap, { crawlDb: layout.crawlDb, hosts: await sitemapHostsOf(ctx.storage, layout.hostDb), threads: this.threads }, round);
    }
    if (!exists && (args.hostDbGenerate || freq !== 'never')) {
      ctx.log.warn(`crawl: HostDb ${layout.hostDb} does not exist yet; round ${round} runs without it (--hostdbupdate builds it)`);
    }
    return exists;
  }

  private async generate(round: number): Promise<string[]> {
    const { args, layout, stages } = this;
    // as bin/crawl: the HostDb and its hosts' sitemaps before each round's generate
    const hostDbReady = await this.roundStartHostDb(round);
    if (this.stopping) return [];
    let segments: string[] = [];
    await this.stage('generate', async (c, a: Parameters<CrawlStages['generate']>[1], o) => {
      const generated = await stages.generate(c, a, o);
      segments = generated.segments;
      return generated.counters;
    }, {
      crawlDb: layout.crawlDb,
      segmentsDir: layout.segmentsDir,
      topN: args.sizeFetchlist ?? CRAWL_DEFAULTS.sizeFetchlist,
      numFetchers: args.numFetchers ?? CRAWL_DEFAULTS.numFetchers,
      noFilter: true,
      // written before generate publishes the segment: a kill at any later point leaves it resumable
      segmentMeta: { [CRAWL_STATE_KEY]: CRAWL_STATE.open },
      ...(args.hostDbGenerate && hostDbReady ? { hostDb: layout.hostDb } : {}),
    }, round);
    return segments;
  }

  /** Every segment of the round through its stages; false when a polite stop ended the round early. */
  private async finishSegments(segments: string[], from: Map<string, SegmentResumePoint>, round: number, resumed: boolean): Promise<boolean> {
    for (const segment of segments) if (!(await this.finishSegment(segment, from.get(segment) ?? 'fetch', round, resumed))) return false;
    return true;
  }

  /**
   * Runs a segment's stages from `from` on; false when a polite stop ended it early. A resumed
   * segment is fetched without the inline parse and then parsed whole (-force replaces what a
   * stopped inline parse wrote), so no page is parsed twice or missed whatever fetcher.parse was.
   */
  private async finishSegment(segment: string, from: SegmentResumePoint, round: number, resumed: boolean): Promise<boolean> {
    const { ctx, layout, stages } = this;
    if (from === 'fetch') {
      // a parse stage follows this fetch: its workers start now, while the fetch waits on the network
      if (resumed || !ctx.conf.getBoolean('fetcher.parse')) startParseWorkers(ctx);
      await this.stage('fetch', stages.fetch, { segment, threads: this.threads, ...(resumed ? { inlineParse: false } : {}) }, round);
      if (this.stopping) return false;
    }
    if (from === 'fetch' || from === 'parse') {
      if (resumed) await this.stage('parse', stages.parse, { segment, force: (await readSegmentState(ctx, segment)).hasParseOutput }, round);
      else if (!ctx.conf.getBoolean('fetcher.parse')) await this.stage('parse', stages.parse, { segment }, round);
      // the workers stay for the next round, holding only their live set through the other stages
      if (this.opts.collectGarbage) await this.collectParseWorkers();
      if (this.stopping) return false;
    }
    // the previous round's index and clean read the CrawlDb that this updatedb changes: they end first
    await this.previousRoundEnd();
    if (from !== 'invertlinks') {
      await this.stage('updatedb', stages.updatedb, { crawlDb: layout.crawlDb, segments: [segment] }, round);
      if (this.stopping) return false;
    }
    await this.stage('invertlinks', stages.invertlinks, { linkDb: layout.linkDb, segments: [segment], noNormalize: true, noFilter: true }, round);
    return !this.stopping;
  }

  /**
   * A full collection in each parse worker, once they have parsed WORKER_GC_MIN_PAGES pages since the
   * last one: after a small round's few pages the round trip and the collections cost more (0.1–0.3 s
   * at load) than the little they free.
   */
  private async collectParseWorkers(): Promise<void> {
    const pool = runningParsePool(this.ctx);
    if (!pool || pool.stats.parsed - this.parsedAtCollection < WORKER_GC_MIN_PAGES) return;
    this.parsedAtCollection = pool.stats.parsed;
    await pool.collectGarbage();
  }

  /**
   * After dedup: with `index` index and clean, then the segments marked done (the round is complete:
   * a later crawl must not resume them). Not after a stop: the next crawl finishes the round.
   */
  private async endRound(segments: string[], round: number, beside: boolean): Promise<void> {
    const { args, ctx, layout, stages } = this;
    if (args.index) {
      await this.stage('index', stages.index, { crawlDb: layout.crawlDb, linkDb: layout.linkDb, segments, crawlDir: args.crawlDir }, round, beside);
      if (this.stopping) return;
      await this.stage('clean', stages.clean, { crawlDb: layout.crawlDb, crawlDir: args.crawlDir }, round, beside);
      if (this.stopping) return;
    }
    await markRoundDone(ctx, segments);
  }

  private countStop(): void {
    const { summary } = this;
    count(summary, 'stopped.by.signal');
    const at = this.stoppedAt;
    if (at?.round !== undefined) summary['stopped.round'] = at.round;
    if (at) count(summary, `stopped.in.${at.stage}`);
  }
}

/**
 * With linkdb.ignore.internal.links (Nutch's default, true) a crawl of one site inverts no link at all:
 * every link stays within a host, the LinkDb stays empty and no page gets anchor text in the index.
 * Nutch says nothing; a crawl that indexes says so once, with the property that changes it.
 */
function warnIfNoAnchors(ctx: NutchContext, summary: Counters): void {
  const ignored = summary['invertlinks.links_ignored'] ?? 0;
  if (ignored === 0 || (summary['invertlinks.links_inverted'] ?? 0) > 0) return;
  if (!ctx.conf.getBoolean('linkdb.ignore.internal.links', true)) return;
  ctx.log.warn(`invertlinks ignored all ${ignored} links because each stays within its host (linkdb.ignore.internal.links=true, Nutch's default): the LinkDb is empty and the index has no anchor text. To rank pages by the anchors of links within a site, run with -D linkdb.ignore.internal.links=false (docs/indexing.md)`);
}

/**
 * Whether a round's index and clean may run beside the next round (crawl.index.overlap): only when
 * nothing before the next updatedb writes the CrawlDb they read — generate.update.crawldb marks the
 * selected URLs, and the HostDb options run updatehostdb and sitemap stages before generate.
 */
function overlapAllowed(ctx: NutchContext, args: CrawlArgs): boolean {
  if (!ctx.conf.getBoolean('crawl.index.overlap', false)) return false;
  if (ctx.conf.getBoolean('generate.update.crawldb', false)) return false;
  return !args.hostDbUpdate && (args.sitemapsFromHostDb ?? 'never') === 'never';
}
