/** Builds segments for fetch tests: crawl_generate written through ctx.storage, as generate would. */
import { join } from 'node:path';
import { createCrawlDatum, CrawlStatus, type CrawlDatum } from '../../core/model/crawl-datum.js';
import type { NutchContext } from '../../core/crawl/context.js';
import type { Keyed } from '../../core/storage/interfaces.js';
import { fixtureContext, type TestNutchContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';

export type T = Parameters<typeof fixtureContext>[0];

/** A context with protocol-http and the default fetch-friendly settings for fast tests. */
export function fetchContext(t: T, defines: Record<string, string> = {}): TestNutchContext & { crawlDir: string } {
  const crawlDir = tempDir(t);
  const ctx = fixtureContext(t, {
    includeBuiltins: true,
    defines: {
      'http.agent.name': 'TestBot',
      'plugin.includes': 'protocol-(http|file)|urlnormalizer-pass',
      'fetcher.server.delay': '0',
      'http.timeout': '1000',
      ...defines,
    },
  });
  return Object.assign(ctx, { crawlDir });
}

/** Writes crawl_generate: one partition per element of `partitions` (each a URL list). */
export async function generateSegment(ctx: NutchContext & { crawlDir: string }, partitions: string[][], init: Partial<CrawlDatum> = {}): Promise<string> {
  const seg = await ctx.storage.createSegment(join(ctx.crawlDir, 'segments'));
  try {
    for (let p = 0; p < partitions.length; p++) {
      const w = await seg.openWriter('crawl_generate', p, { totalPartitions: partitions.length });
      await w.append(partitions[p]!.map((url): Keyed<CrawlDatum> => ({ url, value: createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED, ...init }) })));
      await w.finish();
      await w.close();
    }
    return seg.path;
  } finally {
    await seg.close();
  }
}

export async function readPart<P extends 'crawl_fetch' | 'content'>(ctx: NutchContext, segPath: string, part: P) {
  const seg = await ctx.storage.openSegment(segPath);
  try {
    const out = [];
    for await (const r of seg.read(part)) out.push(r);
    return out;
  } finally {
    await seg.close();
  }
}
