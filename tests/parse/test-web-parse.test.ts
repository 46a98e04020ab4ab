/**
 * Acceptance: `parse` over a segment fetched from the local test web yields exactly the outlinks the
 * test web put in each page (checked against the generator, not against the parser); the fetcher's
 * inline parse (fetcher.parse) writes the same parse output.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fixtureContext, type TestNutchContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestWeb, type TestWeb } from '../web/test-web.js';
import { fetch } from '../../core/crawl/fetch/fetcher.js';
import { parse } from '../../core/crawl/parse/parse-segment.js';
import { InlineParse } from '../../core/crawl/parse/inline-parse.js';
import { CrawlStatus, createCrawlDatum } from '../../core/model/crawl-datum.js';
import type { ParseData } from '../../core/model/parse.js';

const defines = {
  'http.agent.name': 'nutch-ts-test',
  'plugin.includes': 'protocol-http|parse-(html|text)',
  'parser.worker.threads': '1',
  'fetcher.server.delay': '0',
  'fetcher.threads.fetch': '8',
  'fetcher.threads.per.queue': '4',
  'db.max.outlinks.per.page': '-1',
};

async function generatedSegment(ctx: TestNutchContext, t: TestContext, web: TestWeb): Promise<string> {
  const seg = await ctx.storage.createSegment(join(tempDir(t), 'segments'), '20260105000000');
  const urls = web.allUrls().filter((u) => !u.includes('/private/'));
  const w = await seg.openWriter('crawl_generate', 0, { totalPartitions: 1 });
  await w.append(urls.map((url) => ({ url, value: createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED }) })));
  await w.finish();
  await w.close();
  await seg.close();
  return seg.path;
}

async function outlinksByPage(ctx: TestNutchContext, segPath: string): Promise<Map<string, string[]>> {
  const seg = await ctx.storage.openSegment(segPath);
  const out = new Map<string, string[]>();
  for await (const r of seg.read('parse_data')) out.set(r.url, (r.value as ParseData).outlinks.map((o) => o.toUrl));
  await seg.close();
  return out;
}

function assertMatchesGenerator(web: TestWeb, byPage: Map<string, string[]>): void {
  assert.ok(byPage.size >= 10, `parsed ${byPage.size} pages`);
  // Links a page makes to itself are dropped, as Nutch's ParseOutputFormat does.
  for (const [url, links] of byPage) assert.deepEqual(links, web.linksOf(url).filter((l) => l !== url), `outlinks of ${url}`);
}

test('parse over a fetched test-web segment gives exactly the links the generator put in each page', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 8, linksPerPage: 12, robots: false });
  t.after(() => web.close());
  const ctx = fixtureContext(t, { includeBuiltins: true, defines });
  const segPath = await generatedSegment(ctx, t, web);
  await fetch(ctx, { segment: segPath });
  const counters = await parse(ctx, { segment: segPath });
  assert.equal(counters['ParserStatus.success'], 16);
  assertMatchesGenerator(web, await outlinksByPage(ctx, segPath));
});

test('the fetcher\'s inline parse (fetcher.parse) writes the same parse output, with _SUCCESS', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 8, linksPerPage: 12, robots: false });
  t.after(() => web.close());
  const ctx = fixtureContext(t, { includeBuiltins: true, defines: { ...defines, 'fetcher.parse': 'true' } });
  const segPath = await generatedSegment(ctx, t, web);
  const inline = await InlineParse.create(ctx);
  await fetch(ctx, { segment: segPath, parse: inline.parse });
  const seg = await ctx.storage.openSegment(segPath);
  const counters = await inline.finish(seg, { complete: true });
  assert.equal(counters['ParserStatus.success'], 16);
  for (const part of ['parse_text', 'parse_data', 'crawl_parse'] as const) assert.ok(await seg.isComplete(part), `${part} complete`);
  await seg.close();
  assertMatchesGenerator(web, await outlinksByPage(ctx, segPath));
  const again = await parse(ctx, { segment: segPath });
  assert.equal(again['ParseSegment.alreadyParsed'], 1, 'nutch parse refuses a segment parsed while fetching');
});
