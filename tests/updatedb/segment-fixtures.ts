/**
 * Builds CrawlDbs and segments for the database-stage tests through the real storage API (the
 * Segment writer and a CrawlDb update session), as a fetcher and a parser would have written them.
 */
import path from 'node:path';
import { CrawlStatus, createCrawlDatum, type CrawlDatum } from '../../core/model/crawl-datum.js';
import { createParseData, type Outlink, type ParseData } from '../../core/model/parse.js';
import type { StorageEngine, SegmentPartName, SegmentPartTypes, Keyed } from '../../core/storage/interfaces.js';

export const T0 = 1_700_000_000_000;
export const INTERVAL = 2592000;

export function dbDatum(status: number, extra: Partial<CrawlDatum> = {}): CrawlDatum {
  return createCrawlDatum({ status, fetchTime: T0, fetchInterval: INTERVAL, score: 1, ...extra });
}

export async function writeCrawlDb(storage: StorageEngine, dir: string, entries: Record<string, CrawlDatum>): Promise<void> {
  const db = await storage.openCrawlDb(dir);
  const up = await db.beginUpdate();
  await up.put(Object.entries(entries).map(([url, value]) => ({ url, value })));
  await up.commit();
  await db.close();
}

export async function readCrawlDb(storage: StorageEngine, dir: string): Promise<Map<string, CrawlDatum>> {
  const db = await storage.openCrawlDb(dir);
  const out = new Map<string, CrawlDatum>();
  for await (const { url, value } of db.scan()) out.set(url, value);
  await db.close();
  return out;
}

export interface FetchedPage {
  url: string;
  status?: number;
  fetchTime?: number;
  /** Retries copied from the generated datum (as the fetcher does). */
  retries?: number;
  signature?: Uint8Array;
  /** Outlinks: target URL -> linked datum score. */
  outlinks?: Record<string, number>;
  anchors?: Record<string, string>;
  /** When false, the page has a fetch datum but no parse output. */
  parsed?: boolean;
}

export interface SegmentSpec {
  pages: FetchedPage[];
  /** Parts left without _SUCCESS (a writer that was killed). */
  incomplete?: SegmentPartName[];
  /** Parts not written at all. */
  missing?: SegmentPartName[];
}

/** Writes crawl_fetch, crawl_parse and parse_data of one segment; returns its path. */
export async function writeSegment(storage: StorageEngine, segmentsDir: string, name: string, spec: SegmentSpec): Promise<string> {
  const seg = await storage.createSegment(segmentsDir, name);
  const fetch: Keyed<CrawlDatum>[] = [];
  const crawlParse: Keyed<CrawlDatum>[] = [];
  const parseData: Keyed<ParseData>[] = [];
  for (const p of spec.pages) {
    fetch.push({ url: p.url, value: createCrawlDatum({ status: p.status ?? CrawlStatus.STATUS_FETCH_SUCCESS, fetchTime: p.fetchTime ?? T0 + 1000, fetchInterval: INTERVAL, score: 1, retries: p.retries ?? 0 }) });
    if (p.parsed === false) continue;
    if (p.signature) crawlParse.push({ url: p.url, value: createCrawlDatum({ status: CrawlStatus.STATUS_SIGNATURE, signature: p.signature, score: 0, fetchInterval: 0 }) });
    const outlinks: Outlink[] = [];
    for (const [to, score] of Object.entries(p.outlinks ?? {})) {
      crawlParse.push({ url: to, value: createCrawlDatum({ status: CrawlStatus.STATUS_LINKED, fetchTime: T0 + 1000, fetchInterval: INTERVAL, score }) });
      outlinks.push({ toUrl: to, anchor: p.anchors?.[to] ?? '' });
    }
    parseData.push({ url: p.url, value: createParseData({ outlinks }) });
  }
  const parts: { [P in SegmentPartName]?: Keyed<SegmentPartTypes[P]>[] } = { crawl_fetch: fetch, crawl_parse: crawlParse, parse_data: parseData };
  for (const [part, records] of Object.entries(parts) as [SegmentPartName, Keyed<never>[]][]) {
    if (spec.missing?.includes(part)) continue;
    const w = await seg.openWriter(part, 0, { totalPartitions: 1 });
    await w.append(records);
    if (!spec.incomplete?.includes(part)) await w.finish();
    await w.close();
  }
  await seg.close();
  return path.join(segmentsDir, name);
}
