/**
 * createNutch(): the embedding API. One crawler = one NutchContext (configuration, plugin repository,
 * storage engine); instances never share state. Owns what it creates and disposes it in reverse on
 * close(); it never closes what it was handed (the logger, the caller's signal).
 */
import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createContext, type NutchContext } from '../core/crawl/context.js';
import { NutchError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { PluginObject } from '../core/extension-points/typed-plugin.js';
import type { Counters, ProgressEvent, StageOptions } from '../core/crawl/progress.js';
import type {
  DedupCounters, FetchCounters, GenerateCounters, IndexCounters, InjectCounters, InvertLinksCounters, ParseCounters, UpdateDbCounters, UpdateHostDbCounters,
} from '../core/crawl/counter-names.js';
import { crawlLayout, type CrawlLayout } from '../core/crawl/crawl/crawl-layout.js';
import { defaultStages } from '../core/crawl/stages.js';
import { updateHostDb, type UpdateHostDbArgs } from '../core/crawl/hostdb/update-hostdb.js';
import type { HostDatum } from '../core/model/host-datum.js';
import type { CrawlDatum } from '../core/model/crawl-datum.js';
import type { SearchHit } from '../core/extension-points/index-writer.js';
import type { StorageEngine } from '../core/storage/interfaces.js';
import { startCrawl, type CrawlOptions, type CrawlRun } from './crawl-run.js';
import { crawlReaders, type CrawlDbReads, type LinkDbReads, type SegmentReads } from './crawl-readers.js';

export interface CreateNutchOptions {
  /** The crawl directory (crawldb, linkdb, segments, index); default ./crawl. */
  crawlDir?: string;
  /** Property values, above nutch-site.json and below -D. */
  config?: Record<string, unknown>;
  /** An explicit site file instead of the nutch-site.json lookup. */
  configFile?: string;
  pluginFolders?: string[];
  /** Plugins passed as objects (no folder needed). */
  plugins?: PluginObject[];
  /** Any {debug,info,warn,error,child} logger. */
  logger?: Logger;
  /** Aborting stops every running stage politely. */
  signal?: AbortSignal;
  /** Where the app's package.json is looked up for third-party plugins; default the working directory. */
  root?: string;
  cwd?: string;
  /**
   * Where the crawl data lives: a `storage.url` (`postgresql://user@host:port/db`; empty = embedded
   * SQLite under crawlDir) or a StorageEngine object, which the crawler uses but never closes.
   */
  storage?: string | StorageEngine;
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?(e: ProgressEvent): void;
}

export type { CrawlOptions, CrawlRun };

export interface Nutch extends AsyncDisposable {
  readonly crawlDir: string;
  readonly layout: CrawlLayout;
  readonly context: NutchContext;
  inject(seeds: string[] | { urlDir: string }, opts?: CallOptions): Promise<InjectCounters>;
  generate(args?: { topN?: number; numFetchers?: number; noFilter?: boolean; noNorm?: boolean; addDays?: number; maxNumSegments?: number }, opts?: CallOptions): Promise<{ counters: GenerateCounters; segments: string[] }>;
  fetch(segment: string, args?: { threads?: number }, opts?: CallOptions): Promise<FetchCounters>;
  parse(segment: string, args?: { force?: boolean }, opts?: CallOptions): Promise<ParseCounters>;
  updatedb(segments: string[], args?: { noAdditions?: boolean; normalize?: boolean; filter?: boolean }, opts?: CallOptions): Promise<UpdateDbCounters>;
  invertlinks(segments: string[], opts?: CallOptions): Promise<InvertLinksCounters>;
  index(segments: string[], args?: { deleteGone?: boolean }, opts?: CallOptions): Promise<IndexCounters>;
  dedup(args?: { group?: 'none' | 'host' | 'domain' }, opts?: CallOptions): Promise<DedupCounters>;
  /** `nutch updatehostdb -hostdb <crawl>/hostdb -crawldb <crawl>/crawldb` and its options (docs/hostdb.md). */
  updatehostdb(args?: Omit<UpdateHostDbArgs, 'hostDb' | 'crawlDb'>, opts?: CallOptions): Promise<UpdateHostDbCounters>;
  /** One host's HostDatum from `<crawl>/hostdb`, or null. */
  readhostdb(host: string): Promise<HostDatum | null>;
  crawl(opts?: CrawlOptions): CrawlRun;
  search(query: string, opts?: { limit?: number }): Promise<SearchHit[]>;
  /** One URL's CrawlDatum, or null (as `nutch.crawlDb.get`). */
  readdb(url: string): Promise<CrawlDatum | null>;
  /** What `nutch readdb` reads: stats, one URL, a filtered dump, the top-N scores. */
  readonly crawlDb: CrawlDbReads;
  /** What `nutch readlinkdb` reads: one URL's inlinks, a dump. */
  readonly linkDb: LinkDbReads;
  /** What `nutch readseg` reads: the segment listing, one URL's records. */
  readonly segments: SegmentReads;
  close(): Promise<void>;
}

export async function createNutch(options: CreateNutchOptions = {}): Promise<Nutch> {
  const cwd = options.cwd ?? process.cwd();
  const crawlDir = resolve(cwd, options.crawlDir ?? 'crawl');
  const layout = crawlLayout(crawlDir);
  const ctx = createContext({
    cwd,
    configFile: options.configFile,
    config: typeof options.storage === 'string' ? { ...options.config, 'storage.url': options.storage } : options.config,
    storage: typeof options.storage === 'object' ? options.storage : undefined,
    pluginFolders: options.pluginFolders,
    plugins: options.plugins,
    logger: options.logger,
    root: options.root ?? cwd,
  });
  ctx.extensions.logChains();
  let closed = false;
  const checkOpen = () => {
    if (closed) throw new NutchError('NUTCH_CLOSED', 'This crawler was closed; create a new one with createNutch().');
  };
  /** The caller's options with the crawler's signal: the context tracks the run, and close() stops it politely. */
  const callOpts = (opts?: CallOptions): StageOptions => {
    const signals = [options.signal, opts?.signal].filter((s): s is AbortSignal => !!s);
    return { signal: signals.length ? AbortSignal.any(signals) : undefined, onProgress: opts?.onProgress };
  };
  const stage = async <A, R = Counters>(fn: (c: NutchContext, a: A, o: StageOptions) => Promise<R>, args: A, opts?: CallOptions): Promise<R> => {
    checkOpen();
    return ctx.activity.run(callOpts(opts), (o) => fn(ctx, args, o));
  };
  const readers = crawlReaders(ctx, layout);

  const nutch: Nutch = {
    crawlDir,
    layout,
    context: ctx,
    ...readers,
    inject: (seeds, opts) => stage(defaultStages.inject, { crawlDb: layout.crawlDb, urlDir: Array.isArray(seeds) ? writeSeeds(crawlDir, seeds) : resolve(cwd, seeds.urlDir) }, opts),
    generate: (args = {}, opts) => stage(defaultStages.generate, { crawlDb: layout.crawlDb, segmentsDir: layout.segmentsDir, ...args }, opts),
    fetch: (segment, args = {}, opts) => stage(defaultStages.fetch, { segment, ...args }, opts),
    parse: (segment, args = {}, opts) => stage(defaultStages.parse, { segment, ...args }, opts),
    updatedb: (segments, args = {}, opts) => stage(defaultStages.updatedb, { crawlDb: layout.crawlDb, segments, ...args }, opts),
    invertlinks: (segments, opts) => stage(defaultStages.invertlinks, { linkDb: layout.linkDb, segments }, opts),
    index: (segments, args = {}, opts) => stage(defaultStages.index, { crawlDb: layout.crawlDb, linkDb: layout.linkDb, segments, crawlDir, ...args }, opts),
    dedup: (args = {}, opts) => stage(defaultStages.dedup, { crawlDb: layout.crawlDb, ...args }, opts),
    updatehostdb: (args = {}, opts) => stage(updateHostDb, { hostDb: layout.hostDb, crawlDb: layout.crawlDb, ...args }, opts),
    async readhostdb(host) {
      const hostDb = await ctx.storage.openHostDb(layout.hostDb);
      try {
        return await hostDb.get(host.toLowerCase());
      } finally {
        await hostDb.close();
      }
    },
    crawl(opts = {}) {
      checkOpen();
      const seedDir = opts.seeds?.length ? writeSeeds(crawlDir, opts.seeds) : opts.seedDir;
      return startCrawl(ctx, crawlDir, opts, (signal, onProgress) => callOpts({ signal, onProgress }), seedDir);
    },
    search: async (query, opts = {}) => defaultStages.search(ctx, { crawlDir, query, limit: opts.limit ?? 10 }),
    readdb: (url) => readers.crawlDb.get(url),
    // running stages stop politely and finish committing before the plugins they use are stopped
    async close() {
      closed = true;
      await ctx.close();
    },
    [Symbol.asyncDispose]() {
      return nutch.close();
    },
  };
  return nutch;
}

/** Seeds given as URLs go to a file of their own under the crawl directory, for inject to read. */
function writeSeeds(crawlDir: string, seeds: string[]): string {
  const dir = join(crawlDir, '.seeds');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `seeds-${Date.now()}-${process.pid}.txt`);
  writeFileSync(file, seeds.join('\n') + '\n');
  return file;
}
