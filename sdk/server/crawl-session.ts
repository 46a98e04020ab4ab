/**
 * The one crawl a `nutch server` runs at a time, and what its progress events add up to: the state
 * (stage, round, done/total), a pages-per-second series sampled each second, the fetch status mix and
 * per-host page counts and times. It is a view of the events only: everything stored is read from the
 * crawl directory, as the CLI reads it. Subscribers (the event stream) get every event as it happens.
 */
import type { Nutch, CrawlOptions } from '../create-nutch.js';
import type { Counters, ProgressEvent, StageName } from '../../core/crawl/progress.js';
import { errorMessage } from '../../core/errors.js';
import { addMix, statusMix, type StatusMix } from '../status-mix.js';

export interface CrawlRequest {
  seeds?: string[];
  rounds?: number;
  topN?: number;
  threads?: number;
  index?: boolean;
}

export interface RateSample {
  /** Seconds since the crawl started. */
  t: number;
  /** Pages fetched so far. */
  pages: number;
  /** Pages fetched in the last second. */
  rate: number;
}

export interface HostRow {
  host: string;
  pages: number;
  /** Mean fetch time of its pages, ms. */
  avgMs: number;
  errors: number;
}

export interface CrawlState {
  id: number;
  state: 'running' | 'stopping' | 'finished' | 'stopped' | 'failed';
  startedAt: string;
  endedAt: string | null;
  request: CrawlRequest;
  round: number | null;
  stage: StageName | null;
  done: number;
  total: number | null;
  pages: number;
  bytes: number;
  pagesPerSecond: number;
  statusMix: StatusMix;
  series: RateSample[];
  busiestHosts: HostRow[];
  slowestHosts: HostRow[];
  summary: Counters | null;
  error: string | null;
}

const MAX_SERIES = 3600;

export class CrawlSession {
  private current: CrawlState | null = null;
  private run: { stop(): void; done: Promise<void> } | null = null;
  private readonly listeners = new Set<(e: ProgressEvent | { type: 'state'; state: CrawlState }) => void>();
  private hosts = new Map<string, { pages: number; ms: number; errors: number }>();
  private mixBefore = statusMix({});
  private nextId = 1;

  constructor(private readonly nutch: Nutch) {}

  get state(): CrawlState | null {
    return this.current ? { ...this.current, busiestHosts: this.hostRows('busiest'), slowestHosts: this.hostRows('slowest') } : null;
  }

  get running(): boolean {
    return this.run !== null;
  }

  subscribe(listener: (e: ProgressEvent | { type: 'state'; state: CrawlState }) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts a crawl; false when one is running already. */
  start(request: CrawlRequest): boolean {
    if (this.run) return false;
    const started = Date.now();
    const state: CrawlState = {
      id: this.nextId++, state: 'running', startedAt: new Date(started).toISOString(), endedAt: null, request,
      round: null, stage: null, done: 0, total: null, pages: 0, bytes: 0, pagesPerSecond: 0, statusMix: statusMix({}),
      series: [{ t: 0, pages: 0, rate: 0 }], busiestHosts: [], slowestHosts: [], summary: null, error: null,
    };
    this.current = state;
    this.hosts = new Map();
    this.mixBefore = statusMix({});
    // stop = abort this signal: a polite stop, as a first SIGINT
    const stopper = new AbortController();
    const options: CrawlOptions = { seeds: request.seeds, rounds: request.rounds ?? 1, topN: request.topN, threads: request.threads, index: request.index ?? true, signal: stopper.signal };
    const crawl = this.nutch.crawl(options);
    let lastPages = 0;
    const sampler = setInterval(() => {
      const t = Math.round((Date.now() - started) / 1000);
      state.pagesPerSecond = state.pages - lastPages;
      lastPages = state.pages;
      state.series.push({ t, pages: state.pages, rate: state.pagesPerSecond });
      if (state.series.length > MAX_SERIES) state.series.splice(0, state.series.length - MAX_SERIES);
      this.broadcastState();
    }, 1000);
    sampler.unref();
    const done = (async () => {
      try {
        for await (const e of crawl) this.onEvent(state, e);
        state.summary = await crawl.result;
        state.state = state.summary['stopped.by.signal'] ? 'stopped' : 'finished';
      } catch (err) {
        state.state = state.state === 'stopping' ? 'stopped' : 'failed';
        state.error = errorMessage(err);
      } finally {
        clearInterval(sampler);
        state.endedAt = new Date().toISOString();
        state.series.push({ t: Math.round((Date.now() - started) / 1000), pages: state.pages, rate: 0 });
        this.run = null;
        this.broadcastState();
      }
    })();
    this.run = { stop: () => stopper.abort(), done };
    this.broadcastState();
    return true;
  }

  /** A polite stop (as a first SIGINT); resolves once the crawl has committed what it did. */
  async stop(): Promise<boolean> {
    const run = this.run;
    if (!run || !this.current) return false;
    this.current.state = 'stopping';
    this.broadcastState();
    run.stop();
    await run.done;
    return true;
  }

  private onEvent(state: CrawlState, e: ProgressEvent): void {
    switch (e.type) {
      case 'stage-start':
        state.stage = e.stage === 'crawl' ? state.stage : e.stage;
        if (e.round !== undefined) state.round = e.round;
        state.done = 0;
        state.total = null;
        break;
      case 'progress':
        if (e.stage === state.stage) {
          state.done = e.done;
          state.total = e.total ?? null;
        }
        if (e.stage === 'fetch' && e.counters) state.statusMix = addMix(this.mixBefore, statusMix(e.counters));
        break;
      case 'page':
        if (e.stage !== 'fetch') break;
        state.pages++;
        state.bytes += e.bytes ?? 0;
        this.countHost(e);
        break;
      case 'stage-end':
        if (e.stage === 'fetch') {
          this.mixBefore = addMix(this.mixBefore, statusMix(e.counters));
          state.statusMix = this.mixBefore;
        }
        break;
      default:
        break;
    }
    for (const l of this.listeners) l(e);
  }

  private countHost(e: Extract<ProgressEvent, { type: 'page' }>): void {
    let host: string;
    try {
      host = new URL(e.url).host;
    } catch {
      return;
    }
    const h = this.hosts.get(host) ?? { pages: 0, ms: 0, errors: 0 };
    h.pages++;
    h.ms += e.ms ?? 0;
    if (e.status !== 'fetch_success') h.errors++;
    this.hosts.set(host, h);
  }

  private hostRows(order: 'busiest' | 'slowest', limit = 10): HostRow[] {
    const rows = [...this.hosts].map(([host, h]) => ({ host, pages: h.pages, avgMs: Math.round(h.ms / Math.max(1, h.pages)), errors: h.errors }));
    rows.sort(order === 'busiest' ? (a, b) => b.pages - a.pages || a.host.localeCompare(b.host) : (a, b) => b.avgMs - a.avgMs || a.host.localeCompare(b.host));
    return rows.slice(0, limit);
  }

  private broadcastState(): void {
    const state = this.state;
    if (!state) return;
    for (const l of this.listeners) l({ type: 'state', state });
  }
}
