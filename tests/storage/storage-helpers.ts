import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createCrawlDatum, type CrawlDatum } from '../../core/model/crawl-datum.js';
import { SqliteStorageEngine } from '../../core/storage/sqlite/sqlite-engine.js';

export function tempDir(prefix = 'nutch-storage-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function engine(warnings: string[] = [], batchSize = 1000): SqliteStorageEngine {
  return new SqliteStorageEngine({ batchSize, warn: (m) => warnings.push(m) });
}

export function datum(i: number, extra: Partial<CrawlDatum> = {}): CrawlDatum {
  return createCrawlDatum({ status: 1, fetchTime: 1_700_000_000_000 + i, score: i / 10, ...extra });
}

export function url(i: number): string {
  return `http://host${i % 7}.example/page/${String(i).padStart(6, '0')}`;
}

export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
