/** Fetch progress events: totals from crawl_generate, a final report even for a sub-second fetch, page timings. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestWeb } from '../web/test-web.js';
import { fetch } from '../../core/crawl/fetch/fetcher.js';
import type { ProgressEvent } from '../../core/crawl/progress.js';
import { fetchContext, generateSegment } from './fetch-helpers.js';

test('fetch progress: done/total from crawl_generate, a final report, ms on every page event', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 4, linksPerPage: 2 });
  t.after(() => web.close());
  const ctx = fetchContext(t);
  const urls = [...web.allUrls(), web.url(0, '/gone/x')];
  const seg = await generateSegment(ctx, [urls.slice(0, 5), urls.slice(5)]);
  const events: ProgressEvent[] = [];
  await fetch(ctx, { segment: seg, threads: 4 }, { onProgress: (e) => events.push(e) });

  const progress = events.filter((e) => e.type === 'progress');
  assert.ok(progress.length >= 1, 'at least the final report');
  for (const p of progress) assert.equal(p.total, urls.length);
  const last = progress.at(-1)!;
  assert.equal(last.done, urls.length);
  assert.equal(typeof last.counters?.pages_per_second, 'number');

  const pages = events.filter((e) => e.type === 'page');
  assert.equal(pages.length, urls.length);
  for (const p of pages) assert.ok(typeof p.ms === 'number' && p.ms >= 0, `ms on ${p.url}`);
});

test('fetch progress: a resumed fetch counts the URLs already fetched as done', async (t) => {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 4, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t);
  const urls = web.allUrls();
  const seg = await generateSegment(ctx, [urls]);
  // A first fetch that stored two URLs and was killed: crawl_fetch without _SUCCESS.
  const s = await ctx.storage.openSegment(seg);
  const w = await s.openWriter('crawl_fetch', 0, { totalPartitions: 1 });
  const { createCrawlDatum, CrawlStatus } = await import('../../core/model/crawl-datum.js');
  await w.append(urls.slice(0, 2).map((url) => ({ url, value: createCrawlDatum({ status: CrawlStatus.STATUS_FETCH_SUCCESS }) })));
  await w.close();
  await s.close();
  const events: ProgressEvent[] = [];
  const counters = await fetch(ctx, { segment: seg }, { onProgress: (e) => events.push(e) });
  assert.equal(counters.success, urls.length - 2);
  const last = events.filter((e) => e.type === 'progress').at(-1)!;
  assert.equal(last.type === 'progress' && last.done, urls.length);
  assert.equal(last.type === 'progress' && last.total, urls.length);
});
