/**
 * Builds real crawl data for index tests through ctx.storage: a CrawlDb, a LinkDb and one segment
 * (crawl_fetch, parse_data, parse_text, content), from a table of pages. Also a context with the
 * indexing plugins active and an index-writers.json in the test's own conf dir.
 */
import { join } from 'node:path';
import { CrawlStatus, createCrawlDatum, type CrawlDatum } from '../../core/model/crawl-datum.js';
import { createParseData, parseStatus, ParseStatusCode, type ParseData } from '../../core/model/parse.js';
import type { Metadata } from '../../core/model/metadata.js';
import type { Inlink } from '../../core/model/inlinks.js';
import type { SegmentPartName } from '../../core/storage/interfaces.js';
import type { NutchContext } from '../../core/crawl/context.js';
import { fixtureContext, sharedStorageDir, type TestNutchContext } from '../helpers/context.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

export interface PageSpec {
  url: string;
  /** CrawlDb status (default db_fetched); null = not in the CrawlDb. */
  db?: number | null;
  /** crawl_fetch status (default fetch_success); null = not fetched in this segment. */
  fetch?: number | null;
  /** Parse outcome (default success); null = no parse output. */
  parse?: 'success' | 'failed' | null;
  title?: string;
  text?: string;
  contentMeta?: Metadata;
  parseMeta?: Metadata;
  dbMeta?: Metadata;
  inlinks?: Inlink[];
  fetchTime?: number;
}

export interface CrawlFixture {
  crawlDir: string;
  crawlDb: string;
  linkDb: string;
  segment: string;
}

export const FETCH_TIME = Date.UTC(2026, 0, 2, 3, 4, 5);

export async function buildCrawl(ctx: NutchContext, crawlDir: string, pages: PageSpec[], opts: { skipParts?: SegmentPartName[]; unfinished?: SegmentPartName[]; segmentName?: string } = {}): Promise<CrawlFixture> {
  const crawlDb = join(crawlDir, 'crawldb');
  const linkDb = join(crawlDir, 'linkdb');
  const db = await ctx.storage.openCrawlDb(crawlDb);
  const up = await db.beginUpdate();
  await up.put(pages.filter((p) => p.db !== null).map((p) => ({ url: p.url, value: createCrawlDatum({ status: p.db ?? CrawlStatus.STATUS_DB_FETCHED, fetchTime: p.fetchTime ?? FETCH_TIME, metaData: p.dbMeta ?? {}, signature: new Uint8Array([1, 2, 3]) }) })));
  await up.commit();
  await db.close();
  const ldb = await ctx.storage.openLinkDb(linkDb);
  const lup = await ldb.beginUpdate();
  await lup.put(pages.filter((p) => p.inlinks?.length).map((p) => ({ url: p.url, value: { inlinks: p.inlinks! } })));
  await lup.commit();
  await ldb.close();

  const seg = await ctx.storage.createSegment(join(crawlDir, 'segments'), opts.segmentName ?? '20260102030405');
  const write = async <V>(part: SegmentPartName, records: { url: string; value: V }[]) => {
    if (opts.skipParts?.includes(part)) return;
    const w = await seg.openWriter(part, 0, { totalPartitions: 1 });
    await w.append(records as never);
    if (!opts.unfinished?.includes(part)) await w.finish();
    await w.close();
  };
  const fetched = pages.filter((p) => p.fetch !== null);
  await write<CrawlDatum>('crawl_fetch', fetched.map((p) => ({ url: p.url, value: createCrawlDatum({ status: p.fetch ?? CrawlStatus.STATUS_FETCH_SUCCESS, fetchTime: p.fetchTime ?? FETCH_TIME }) })));
  const parsed = pages.filter((p) => p.parse !== null);
  await write<ParseData>('parse_data', parsed.map((p) => ({
    url: p.url,
    value: createParseData({
      status: p.parse === 'failed' ? parseStatus(ParseStatusCode.FAILED, 200, 'boom') : parseStatus(ParseStatusCode.SUCCESS),
      title: p.title ?? '', contentMeta: { 'nutch.segment.name': ['20260102030405'], 'nutch.content.digest': ['abc123'], ...p.contentMeta }, parseMeta: p.parseMeta ?? {},
    }),
  })));
  await write('parse_text', parsed.map((p) => ({ url: p.url, value: { text: p.text ?? '' } })));
  await write('content', parsed.map((p) => ({ url: p.url, value: { url: p.url, baseUrl: p.url, content: new TextEncoder().encode(`<html>${p.text ?? ''}</html>`), contentType: 'text/html', metadata: {} } })));
  await seg.close();
  return { crawlDir, crawlDb, linkDb, segment: seg.path };
}

export const INDEX_PLUGINS = 'index-(basic|anchor|more|metadata|static)|indexer-(sqlite|dummy|jsonl|csv|postgres)|urlfilter-regex|urlnormalizer-(pass|basic)|fixture-.*';

/** A context with the built-in indexing plugins and `writers` as index-writers.json. */
export function indexContext(t: { after(fn: () => unknown): void }, writers: unknown, defines: Record<string, string> = {}, pluginFolders: string[] = []): TestNutchContext & { confDir: string } {
  const confDir = tempDir(t as never);
  writeFile(join(confDir, 'index-writers.json'), writers as object);
  // the index contexts of one test share their stores (their conf dirs differ: each its own index-writers.json)
  const ctx = fixtureContext(t as never, { includeBuiltins: true, cwd: confDir, pluginFolders, defines: { 'plugin.includes': INDEX_PLUGINS, ...defines } }, sharedStorageDir(t, confDir));
  return Object.assign(ctx, { confDir });
}

export function dummyWriters(path: string, extra: object[] = []): object {
  return { writers: [{ id: 'dummy_1', extension: 'indexer-dummy', parameters: { path, delete: 'true' } }, ...extra] };
}
