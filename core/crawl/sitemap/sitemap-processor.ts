/**
 * sitemap, as Nutch's SitemapProcessor: URLs from sitemaps merged into the CrawlDb. Sitemaps come
 * from a -sitemapUrls file or directory (each line a sitemap URL or a host name) and from hosts: those
 * of the HostDb (-hostdb) or, when neither is given, every host of the CrawlDb (a nutch-ts addition:
 * Nutch needs a HostDb for that). New URLs enter as db_unfetched with the sitemap's priority,
 * changefreq and lastmod (sitemap-datum.ts); a URL already in the CrawlDb is kept as it is unless
 * sitemap.url.overwrite.existing, which copies score, fetch interval and modified time onto it.
 * Sitemap entries are sorted through an ExternalSort (bounded memory) and written in one update
 * session: a crash leaves the CrawlDb as it was.
 */
import type { NutchContext } from '../context.js';
import { normalizeThenFilter } from '../../extension-points/normalize-then-filter.js';
import type { Counters, StageOptions } from '../progress.js';
import { StageRun } from '../stage-run.js';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import { CrawlStatus } from '../../model/crawl-datum.js';
import { ExternalSort } from '../../storage/external-sort.js';
import type { CrawlDb, CrawlDbUpdate, Keyed } from '../../storage/interfaces.js';
import { listSeedFiles, readSeedLines } from '../inject/seed-files.js';
import { decodeDatum, encodeDatum } from '../mergedb/datum-codec.js';
import { SitemapFetcher } from './sitemap-fetcher.js';
import { sitemapDatum } from './sitemap-datum.js';

export interface SitemapArgs {
  crawlDb: string;
  /** A file or directory of sitemap URLs or host names. */
  sitemapUrls?: string;
  /** Host names whose robots.txt sitemaps to read (the HostDb's hosts). */
  hosts?: AsyncIterable<string>;
  /** Read the sitemaps of every host in the CrawlDb (the default when neither sitemapUrls nor hosts is given). */
  hostsFromCrawlDb?: boolean;
  threads?: number;
  strict?: boolean;
  filter?: boolean;
  normalize?: boolean;
  force?: boolean;
}

export async function sitemap(ctx: NutchContext, args: SitemapArgs, opts: StageOptions = {}): Promise<Counters> {
  const run = new StageRun(ctx, 'sitemap', opts, { new_sitemap_entries: 0, existing_sitemap_entries: 0 });
  run.start({ crawlDb: args.crawlDb, sitemapUrls: args.sitemapUrls });
  const sort = new ExternalSort({ columns: 1 });
  const db = await ctx.storage.openCrawlDb(args.crawlDb);
  let committed = false;
  try {
    await readSitemaps(ctx, run, args, db, sort);
    if (run.stopping) run.count('stopped');
    else committed = await run.inSession(() => db.beginUpdate({ force: args.force }), (session) => mergeIntoCrawlDb(run, db, session, sort), 'SitemapProcessor: stopped; the CrawlDb is unchanged');
  } finally {
    sort.close();
    await db.close();
  }
  const { counters } = run;
  return run.finish(committed ? () => `SitemapProcessor: new sitemap entries: ${counters.new_sitemap_entries}, existing: ${counters.existing_sitemap_entries}, failed fetches: ${counters.failed_fetches ?? 0}` : undefined);
}

/** 1. The sitemaps of every source (sitemap URLs, hosts), read by `threads` workers; their entries into the sort. */
async function readSitemaps(ctx: NutchContext, run: StageRun, args: SitemapArgs, db: CrawlDb, sort: ExternalSort): Promise<void> {
  const { conf, counters } = run;
  const strict = args.strict ?? conf.getBoolean('sitemap.strict.parsing', true);
  const filters = (args.filter ?? conf.getBoolean('sitemap.url.filter', true)) ? await ctx.extensions.urlFilters() : null;
  const normalizers = (args.normalize ?? conf.getBoolean('sitemap.url.normalize', true)) ? await ctx.extensions.urlNormalizers('default') : null;
  const rewrite = normalizeThenFilter(normalizers, filters);
  const maxUrlLength = conf.getInt('db.max.outlink.length');
  const filterNormalize = (url: string): string | null => {
    if (url.length > maxUrlLength) return null;
    try {
      return rewrite(url);
    } catch {
      return null;
    }
  };
  const now = Date.now();
  const defaultInterval = conf.getInt('db.fetch.interval.default');
  const fetcher = new SitemapFetcher(ctx, {
    strict,
    maxBytes: conf.getInt('sitemap.size.max', 52_428_800),
    maxRedirects: conf.getInt('sitemap.redir.max', 3),
    tryDefaultSitemapXml: conf.getBoolean('sitemap.url.default.sitemap.xml', true),
    filterNormalize,
    counters,
    signal: run.signal,
    onUrls(urls) {
      for (const u of urls) {
        const key = filterNormalize(u.loc);
        if (key === null) { run.count('filtered_records'); continue; }
        sort.add([key, encodeDatum(sitemapDatum(u, now, defaultInterval))]);
      }
    },
  });
  const jobs = await sitemapSources(run, args, db, fetcher);
  run.log.info(`SitemapProcessor: ${jobs.length} sitemap sources; strict: ${strict}; filtering: ${!!filters}; normalizing: ${!!normalizers}`);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length && !run.stopping) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(args.threads ?? 8, jobs.length)) }, worker));
}

/** The work: each line of the -sitemapUrls files (a sitemap URL or a host), the given hosts, or the CrawlDb's hosts. */
async function sitemapSources(run: StageRun, args: SitemapArgs, db: CrawlDb, fetcher: SitemapFetcher): Promise<(() => Promise<void>)[]> {
  const jobs: (() => Promise<void>)[] = [];
  if (args.sitemapUrls) {
    for (const file of listSeedFiles(args.sitemapUrls, (m) => run.log.warn(m))) {
      for await (const line of readSeedLines(file, 64 * 1024)) {
        const text = line.text?.trim();
        if (!text || text.startsWith('#')) continue;
        if (/^(https?:\/\/|ftp:\/\/|file:\/)/i.test(text)) jobs.push(() => fetcher.fromSeed(text));
        else jobs.push(() => fetcher.fromHost(text));
      }
    }
  }
  if (args.hosts) for await (const h of args.hosts) jobs.push(() => fetcher.fromHost(h));
  if (args.hostsFromCrawlDb ?? (!args.sitemapUrls && !args.hosts)) {
    for (const origin of await originsOf(db)) jobs.push(() => fetcher.fromHost(origin));
  }
  return jobs;
}

/** 2. The sorted entries merged into the CrawlDb a batch of URLs at a time (SitemapReducer). */
async function mergeIntoCrawlDb(run: StageRun, db: CrawlDb, session: CrawlDbUpdate, sort: ExternalSort): Promise<void> {
  const overwrite = run.conf.getBoolean('sitemap.url.overwrite.existing', false);
  const batchSize = run.conf.getInt('storage.batch.size', 1000);
  let batch = new Map<string, CrawlDatum>();
  const flush = async () => {
    if (batch.size === 0) return;
    const existing = await db.getMany([...batch.keys()]);
    const out: Keyed<CrawlDatum>[] = [];
    for (const [url, fromSitemap] of batch) {
      const old = existing.get(url);
      if (old) {
        run.count('existing_sitemap_entries');
        if (overwrite) out.push({ url, value: { ...old, score: fromSitemap.score, fetchInterval: fromSitemap.fetchInterval, modifiedTime: fromSitemap.modifiedTime } });
      } else {
        run.count('new_sitemap_entries');
        out.push({ url, value: { ...fromSitemap, status: CrawlStatus.STATUS_DB_UNFETCHED } });
      }
    }
    if (out.length) await session.put(out);
    batch = new Map();
    run.checkAborted();
  };
  for (const [url, encoded] of sort.sorted()) {
    if (batch.has(url)) run.count('duplicate_entries');
    else if (batch.size >= batchSize) await flush(); // only between URLs: a URL's entries meet in one batch
    batch.set(url, decodeDatum(encoded as string)); // a later entry for the same URL wins, as Nutch's reducer
  }
  await flush();
}

/** Distinct origins (scheme://host:port) of the CrawlDb's URLs, in first-seen order. */
async function originsOf(db: CrawlDb): Promise<string[]> {
  const origins = new Set<string>();
  if (!(await db.exists())) return [];
  for await (const { url } of db.scan()) {
    try {
      const u = new URL(url);
      if (u.protocol === 'http:' || u.protocol === 'https:') origins.add(u.origin);
    } catch {
      // a CrawlDb key that is no URL has no host to ask
    }
  }
  return [...origins];
}
