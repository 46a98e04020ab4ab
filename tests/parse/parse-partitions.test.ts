/**
 * Parse writes its parts with the segment's one partition count (core/crawl/segment-parts.ts), the
 * count fetch wrote content with: parsing an incomplete content part never marks the parse parts
 * complete while a fetch list is still missing; a segment without crawl_generate counts the content's
 * partitions.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fixtureContext, type TestNutchContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { parse } from '../../core/crawl/parse/parse-segment.js';
import { createContent, type Content } from '../../core/model/content.js';
import { CrawlStatus, DatumMeta, createCrawlDatum } from '../../core/model/crawl-datum.js';
import type { Segment } from '../../core/storage/interfaces.js';

function context(t: TestContext): TestNutchContext {
  return fixtureContext(t, { includeBuiltins: true, defines: { 'plugin.includes': 'parse-(html|text)', 'parser.worker.threads': '1' } });
}

const page = (url: string): Content =>
  createContent({ url, contentType: 'text/html', content: new TextEncoder().encode(`<a href="${url}next">next</a>`), metadata: { [DatumMeta.FETCH_STATUS_KEY]: [String(CrawlStatus.STATUS_FETCH_SUCCESS)] } });

async function write(seg: Segment, part: 'crawl_generate' | 'content', partition: number, total: number, url: string): Promise<void> {
  const w = part === 'content'
    ? await seg.openWriter('content', partition, { totalPartitions: total })
    : await seg.openWriter('crawl_generate', partition, { totalPartitions: total });
  await (w as { append(r: unknown[]): Promise<void> }).append([{ url, value: part === 'content' ? page(url) : createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED }) }]);
  await w.finish();
  await w.close();
}

const hosts = ['http://a.example/', 'http://b.example/', 'http://c.example/'];

test('parse of content fetched from 2 of 3 fetch lists: the parse parts wait for the third (no _SUCCESS)', async (t) => {
  const ctx = context(t);
  const seg = await ctx.storage.createSegment(join(tempDir(t), 'segments'), '20260101000000');
  for (let p = 0; p < 3; p++) await write(seg, 'crawl_generate', p, 3, hosts[p]!);
  for (let p = 0; p < 2; p++) await write(seg, 'content', p, 3, hosts[p]!);
  assert.equal(await seg.isComplete('content'), false);
  await seg.close();

  const counters = await parse(ctx, { segment: seg.path });
  assert.equal(counters['ParserStatus.success'], 2, JSON.stringify(counters));
  const after = await ctx.storage.openSegment(seg.path);
  try {
    assert.deepEqual(await after.partitions('parse_data'), [0, 1]);
    for (const part of ['parse_text', 'parse_data', 'crawl_parse'] as const) {
      assert.equal(await after.isComplete(part), false, `${part} must wait for fetch list 2`);
    }
  } finally {
    await after.close();
  }
});

test('a segment without crawl_generate: the parse parts follow the content\'s partitions and complete', async (t) => {
  const ctx = context(t);
  const seg = await ctx.storage.createSegment(join(tempDir(t), 'segments'), '20260101000000');
  for (let p = 0; p < 2; p++) await write(seg, 'content', p, 2, hosts[p]!);
  await seg.close();

  await parse(ctx, { segment: seg.path });
  const after = await ctx.storage.openSegment(seg.path);
  try {
    assert.deepEqual(await after.partitions('parse_data'), [0, 1]);
    for (const part of ['parse_text', 'parse_data', 'crawl_parse'] as const) assert.equal(await after.isComplete(part), true, part);
  } finally {
    await after.close();
  }
});
