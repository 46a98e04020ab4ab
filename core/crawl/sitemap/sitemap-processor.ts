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
import { count, type Counters, type StageOptions } from '../progress.js';
import type { CrawlDatum } from '../../model/crawl-datum.js';
import { CrawlStatus } from '../../model/crawl-datum.js';
import { ExternalSort } from '../../storage/external-sort.js';
import type { CrawlDbUpdate, Keyed } from '../../storage/interfaces.js';
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
  const { conf, log } = ctx;
  const counters: Counters = { new_sitemap_entries: 0, existing_sitemap_entries: 0 };
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
  const sort = new ExternalSort({ columns: 1 });
  const db = await ctx.storage.openCrawlDb(args.crawlDb);
  let session: CrawlDbUpdate | null = null;
  try {
    const fetcher = new SitemapFetcher(ctx, {
      strict,
      maxBytes: conf.getInt('sitemap.size.max', 52_428_800),
      maxRedirects: conf.getInt('sitemap.redir.max', 3),
      tryDefaultSitemapXml: conf.getBoolean('sitemap.url.default.sitemap.xml', true),
      filterNormalize,
      counters,
      signal: opts.signal,
      onUrls(urls) {
        for (const u of urls) {
          const key = filterNormalize(u.loc);
          if (key === null) { count(counters, 'filtered_records'); continue; }
          sort.add([key, encodeDatum(sitemapDatum(u, now, defaultInterval))]);
        }
      },
    });

    // the work: sitemap URLs and hosts, read by `threads` workers
    const jobs: (() => Promise<void>)[] = [];
    if (args.sitemapUrls) {
      for (const file of listSeedFiles(args.sitemapUrls, (m) => log.warn(m))) {
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
    log.info(`SitemapProcessor: ${jobs.length} sitemap sources; strict: ${strict}; filtering: ${!!filters}; normalizing: ${!!normalizers}`);
    let next = 0;
    const worker = async () => {
      while (next < jobs.length && !opts.signal?.aborted) await jobs[next++]!();
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(args.threads ?? 8, jobs.length)) }, worker));
    if (opts.signal?.aborted) return { ...counters, stopped: 1 };

    // merge into the CrawlDb, a batch of URLs at a time
    session = await db.beginUpdate({ force: args.force });
    const overwrite = conf.getBoolean('sitemap.url.overwrite.existing', false);
    const batchSize = conf.getInt('storage.batch.size', 1000);
    let batch = new Map<string, CrawlDatum>();
    const flush = async () => {
      if (batch.size === 0) return;
      const existing = await db.getMany([...batch.keys()]);
      const out: Keyed<CrawlDatum>[] = [];
      for (const [url, fromSitemap] of batch) {
        const old = existing.get(url);
        if (old) {
          count(counters, 'existing_sitemap_entries');
          if (overwrite) out.push({ url, value: { ...old, score: fromSitemap.score, fetchInterval: fromSitemap.fetchInterval, modifiedTime: fromSitemap.modifiedTime } });
        } else {
          count(counters, 'new_sitemap_entries');
          out.push({ url, value: { ...fromSitemap, status: CrawlStatus.STATUS_DB_UNFETCHED } });
        }
      }
      if (out.length) await session!.put(out);
      batch = new Map();
    };
    for (const [url, encoded] of sort.sorted()) {
      if (batch.has(url)) count(counters, 'duplicate_entries');
      else if (batch.size >= batchSize) await flush(); // only between URLs: a URL's entries meet in one batch
      batch.set(url, decodeDatum(encoded as string)); // a later entry for the same URL wins, as Nutch's reducer
    }
    await flush();
    await session.commit();
    session = null;
    log.info(`SitemapProcessor: new sitemap entries: ${counters.new_sitemap_entries}, existing: ${counters.existing_sitemap_entries}, failed fetches: ${counters.failed_fetches ?? 0}`);
    return counters;
  } finally {
    await session?.abort();
    sort.close();
    await db.close();
  }
}

/** Distinct origins (scheme://host:port) of the CrawlDb's URLs, in first-seen order. */
async function originsOf(db: { exists(): Promise<boolean>; scan(): AsyncIterable<{ url: string }> }): Promise<string[]> {
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
