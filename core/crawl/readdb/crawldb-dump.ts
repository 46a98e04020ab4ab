/**
 * readdb -dump and -topN: streamed to `<out>/part-r-00000` as Nutch's text output (the directory
 * is created; an existing one is refused, as Hadoop refuses an existing output path). -dump
 * filters by -status, -regex (whole-URL match, as Java's Matcher.matches) and -retry; -format
 * normal|csv|json|crawldb. -topN keeps a bounded min-heap of N entries.
 */
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { NutchError } from '../../errors.js';
import { statusName, type CrawlDatum } from '../../model/crawl-datum.js';
import type { CrawlDbReader, Keyed, StorageEngine } from '../../storage/interfaces.js';
import { bestScoring } from './best-scoring.js';
import { CSV_HEADER, datumToCsv, datumToJson, datumToString, javaFloat } from './datum-format.js';

export type DumpFormat = 'normal' | 'csv' | 'json' | 'crawldb';

export interface DumpOptions {
  format?: DumpFormat;
  status?: string;
  regex?: string;
  retry?: number;
  batchSize?: number;
  signal?: AbortSignal;
}

export const OUTPUT_FILE = 'part-r-00000';

function prepareOutDir(out: string): void {
  if (fs.existsSync(out)) throw new NutchError('NUTCH_STORAGE_EXISTS', `Output directory ${out} already exists; remove it or choose another.`, { file: out });
  fs.mkdirSync(out, { recursive: true });
}

async function writeAll(file: string, lines: AsyncIterable<string>): Promise<void> {
  const stream = fs.createWriteStream(file);
  try {
    for await (const line of lines) if (!stream.write(line)) await once(stream, 'drain');
  } finally {
    stream.end();
    await once(stream, 'close');
  }
}

function compileRegex(regex: string): RegExp {
  try {
    return new RegExp(`^(?:${regex})$`);
  } catch (err) {
    throw new NutchError('NUTCH_USAGE', `-regex ${JSON.stringify(regex)} does not compile: ${(err as Error).message}`);
  }
}

/** -dump's record filter: -status (a status name, any case), -regex (whole URL) and -retry (at least). */
export function datumFilter(o: Pick<DumpOptions, 'status' | 'regex' | 'retry'>): (r: Keyed<CrawlDatum>) => boolean {
  const pattern = o.regex !== undefined ? compileRegex(o.regex) : null;
  return (r) =>
    (o.retry === undefined || r.value.retries >= o.retry) &&
    (o.status === undefined || statusName(r.value.status).toLowerCase() === o.status.toLowerCase()) &&
    (pattern === null || pattern.test(r.url));
}

export async function dumpCrawlDb(db: CrawlDbReader, out: string, storage: StorageEngine, o: DumpOptions = {}): Promise<number> {
  const format = o.format ?? 'normal';
  if (!['normal', 'csv', 'json', 'crawldb'].includes(format)) throw new NutchError('NUTCH_USAGE', `Unknown -format ${format}; use normal, csv, json or crawldb.`);
  const wanted = datumFilter(o);
  prepareOutDir(out);
  let dumped = 0;
  if (format === 'crawldb') {
    const target = await storage.openCrawlDb(out);
    const up = await target.beginUpdate();
    try {
      let batch: Keyed<CrawlDatum>[] = [];
      for await (const r of db.scan({ batchSize: o.batchSize })) {
        if (o.signal?.aborted) break;
        if (!wanted(r)) continue;
        batch.push(r);
        dumped++;
        if (batch.length >= (o.batchSize ?? 1000)) { await up.put(batch); batch = []; }
      }
      await up.put(batch);
      await up.commit();
    } catch (err) {
      await up.abort();
      throw err;
    } finally {
      await target.close();
    }
    return dumped;
  }
  async function* lines(): AsyncGenerator<string> {
    if (format === 'csv') yield CSV_HEADER + '\n';
    for await (const r of db.scan({ batchSize: o.batchSize })) {
      if (o.signal?.aborted) return;
      if (!wanted(r)) continue;
      dumped++;
      if (format === 'csv') yield datumToCsv(r.url, r.value) + '\n';
      else if (format === 'json') yield datumToJson(r.url, r.value) + '\n';
      else yield `${r.url}\t${datumToString(r.value)}\n`;
    }
  }
  await writeAll(path.join(out, OUTPUT_FILE), lines());
  return dumped;
}

/** The N best-scoring URLs (score >= min), best first: `score\turl` lines. */
export async function topNCrawlDb(db: CrawlDbReader, n: number, out: string, min = 0, o: { batchSize?: number; signal?: AbortSignal } = {}): Promise<number> {
  if (!Number.isInteger(n) || n < 1) throw new NutchError('NUTCH_USAGE', `-topN needs a positive integer, got ${n}.`);
  prepareOutDir(out);
  const best = await bestScoring(db, n, min, o);
  async function* lines(): AsyncGenerator<string> {
    for (const e of best) yield `${javaFloat(e.score)}\t${e.url}\n`;
  }
  await writeAll(path.join(out, OUTPUT_FILE), lines());
  return best.length;
}
