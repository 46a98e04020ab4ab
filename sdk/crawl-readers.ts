/**
 * What the CLI's readers print, as values for an app (so it never shells out): `readdb` -stats, -url,
 * -dump and -topN as `nutch.crawlDb`; `readlinkdb` -url and -dump as `nutch.linkDb`; `readseg` -list
 * and -get as `nutch.segments`. Read-only, as the commands: no writer lock is taken, each call opens
 * the store and closes it when done (a dump's iterator closes it on `break` too), so reads work while
 * a crawl writes.
 */
import { isAbsolute, join, resolve } from 'node:path';
import { NutchError } from '../core/errors.js';
import type { NutchContext } from '../core/crawl/context.js';
import type { CrawlLayout } from '../core/crawl/crawl/crawl-layout.js';
import type { CrawlDatum } from '../core/model/crawl-datum.js';
import type { Inlinks } from '../core/model/inlinks.js';
import type { SegmentPartName } from '../core/storage/interfaces.js';
import { openExistingCrawlDb, openExistingLinkDb } from '../core/crawl/existing-stores.js';
import { computeStats, type CrawlDbStats } from '../core/crawl/readdb/crawldb-stats.js';
import { datumFilter } from '../core/crawl/readdb/crawldb-dump.js';
import { bestScoring, type ScoredUrl } from '../core/crawl/readdb/best-scoring.js';
import { ALL_PARTS, listSegment, readRecords, type SegmentListing, type SegmentRecords } from '../core/crawl/readseg/readseg.js';

export type { CrawlDbStats, ScoredUrl, SegmentListing, SegmentRecords };

export interface CrawlDbDumpOptions {
  /** A CrawlDatum status name (`db_fetched`, `db_unfetched`, …; any case), as readdb -dump -status. */
  status?: string;
  /** Only URLs the whole of which match this regex (readdb -dump -regex). */
  regex?: string;
  /** Only URLs retried at least this many times (readdb -dump -retry). */
  retry?: number;
  signal?: AbortSignal;
}

/** `nutch readdb`, as values. */
export interface CrawlDbReads {
  /** readdb -url: the CrawlDatum of one URL, or null. */
  get(url: string): Promise<CrawlDatum | null>;
  /** readdb -stats (with `sort`: counts by host under each status, as -sort). */
  stats(opts?: { sort?: boolean }): Promise<CrawlDbStats>;
  /** readdb -dump: the records in URL order, streamed. */
  dump(opts?: CrawlDbDumpOptions): AsyncIterable<{ url: string; datum: CrawlDatum }>;
  /** readdb -topN: the N best-scoring URLs with score >= min, best first. */
  topN(n: number, opts?: { min?: number; signal?: AbortSignal }): Promise<ScoredUrl[]>;
}

/** `nutch readlinkdb`, as values. */
export interface LinkDbReads {
  /** readlinkdb -url: the inlinks of one URL, or null. */
  get(url: string): Promise<Inlinks | null>;
  /** readlinkdb -dump: every URL's inlinks in URL order, streamed; `regex` as -regex (found anywhere). */
  dump(opts?: { regex?: string; signal?: AbortSignal }): AsyncIterable<{ url: string; inlinks: Inlinks }>;
}

/** `nutch readseg`, as values. A segment is named by its directory name or path. */
export interface SegmentReads {
  /** The segment paths under the crawl's segments directory, oldest first. */
  names(): Promise<string[]>;
  /** readseg -list (of the given segments, default every one). */
  list(segments?: string[]): Promise<SegmentListing[]>;
  /** readseg -get: one URL's records in each part of the segment (only the parts named, if any). */
  get(segment: string, url: string, parts?: SegmentPartName[]): Promise<SegmentRecords>;
}

export function crawlReaders(ctx: NutchContext, layout: CrawlLayout): { crawlDb: CrawlDbReads; linkDb: LinkDbReads; segments: SegmentReads } {
  return { crawlDb: crawlDbReads(ctx, layout.crawlDb), linkDb: linkDbReads(ctx, layout.linkDb), segments: segmentReads(ctx, layout.segmentsDir) };
}

function crawlDbReads(ctx: NutchContext, path: string): CrawlDbReads {
  const batchSize = () => ctx.conf.getInt('storage.batch.size');
  const open = () => openExistingCrawlDb(ctx, path, ' (inject seeds first).');
  return {
    async get(url) {
      const db = await ctx.storage.openCrawlDb(path);
      try {
        return await db.get(url);
      } finally {
        await db.close();
      }
    },
    async stats(opts = {}) {
      const db = await open();
      try {
        return await computeStats(db, { sort: opts.sort, batchSize: batchSize() });
      } finally {
        await db.close();
      }
    },
    async *dump(opts = {}) {
      const wanted = datumFilter(opts);
      const db = await open();
      try {
        for await (const r of db.scan({ batchSize: batchSize() })) {
          if (opts.signal?.aborted) return;
          if (wanted(r)) yield { url: r.url, datum: r.value };
        }
      } finally {
        await db.close();
      }
    },
    async topN(n, opts = {}) {
      const db = await open();
      try {
        return await bestScoring(db, n, opts.min ?? 0, { batchSize: batchSize(), signal: opts.signal });
      } finally {
        await db.close();
      }
    },
  };
}

function linkDbReads(ctx: NutchContext, path: string): LinkDbReads {
  const open = () => openExistingLinkDb(ctx, path, ' (run invertlinks first).');
  return {
    async get(url) {
      const db = await open();
      try {
        const inlinks = await db.get(url);
        return inlinks && inlinks.inlinks.length ? inlinks : null;
      } finally {
        await db.close();
      }
    },
    async *dump(opts = {}) {
      const regex = dumpRegex(opts.regex);
      const db = await open();
      try {
        for await (const { url, value } of db.scan({ batchSize: ctx.conf.getInt('storage.batch.size') })) {
          if (opts.signal?.aborted) return;
          if (!regex || regex.test(url)) yield { url, inlinks: value };
        }
      } finally {
        await db.close();
      }
    },
  };
}

/** linkDb.dump's regex (readlinkdb -regex), compiled before the LinkDb is opened. */
function dumpRegex(source: string | undefined): RegExp | null {
  if (source === undefined) return null;
  try {
    return new RegExp(source);
  } catch (err) {
    throw new NutchError('NUTCH_USAGE', `linkDb.dump: regex ${JSON.stringify(source)} does not compile: ${(err as Error).message}`);
  }
}

function segmentReads(ctx: NutchContext, segmentsDir: string): SegmentReads {
  const segmentPath = (segment: string) => (isAbsolute(segment) || segment.includes('/') ? resolve(segment) : join(segmentsDir, segment));
  return {
    names: () => ctx.storage.listSegments(segmentsDir),
    async list(names) {
      const paths = names ? names.map(segmentPath) : await ctx.storage.listSegments(segmentsDir);
      const rows: SegmentListing[] = [];
      for (const p of paths) rows.push(await listSegment(ctx, p));
      return rows;
    },
    async get(segment, url, parts) {
      const selection = parts ? Object.fromEntries(Object.keys(ALL_PARTS).map((p) => [p, parts.includes(p as SegmentPartName)])) as typeof ALL_PARTS : ALL_PARTS;
      return readRecords(ctx, segmentPath(segment), url, selection);
    },
  };
}
