import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestWeb, type RequestRecord } from '../web/test-web.js';
import { fetch } from '../../core/crawl/fetch/fetcher.js';
import { fetchContext, generateSegment, readPart } from './fetch-helpers.js';

const pages = (log: RequestRecord[] | undefined) => (log ?? []).filter((r) => r.path !== '/robots.txt');

test('politeness: one request at a time per host, >= fetcher.server.delay apart (robots crawl-delay when set)', async (t) => {
  const web = await startTestWeb({ hosts: 3, pagesPerHost: 5, linksPerPage: 2, robots: { crawlDelay: (h) => (h === 2 ? 0.2 : undefined) } });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'fetcher.server.delay': '0.1', 'fetcher.threads.per.queue': '1' });
  const seg = await generateSegment(ctx, [web.allUrls()]);
  const counters = await fetch(ctx, { segment: seg, threads: 10 });
  assert.equal(counters.success, 15);
  for (let h = 0; h < 3; h++) {
    const log = pages(web.requestLog.get(web.hosts[h]!));
    assert.equal(log.length, 5);
    const delay = h === 2 ? 200 : 100;
    for (let i = 1; i < log.length; i++) {
      assert.ok(log[i]!.start >= log[i - 1]!.end, `host ${h}: request ${i} overlaps the previous one`);
      assert.ok(log[i]!.start - log[i - 1]!.end >= delay - 5, `host ${h}: gap ${(log[i]!.start - log[i - 1]!.end).toFixed(1)} ms < ${delay}`);
    }
  }
  const robots = web.requestLog.get(web.hosts[0]!)!.filter((r) => r.path === '/robots.txt');
  assert.equal(robots.length, 1, 'robots.txt fetched once per host');
});

test('politeness: fetcher.threads.per.queue 2 allows two concurrent requests per host, never three', async (t) => {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 12, linksPerPage: 1, latencyMs: 40 });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'fetcher.threads.per.queue': '2', 'fetcher.server.min.delay': '0' });
  const seg = await generateSegment(ctx, [web.allUrls()]);
  await fetch(ctx, { segment: seg, threads: 10 });
  const log = pages(web.requestLog.get(web.hosts[0]!));
  let maxConcurrent = 0;
  for (const r of log) maxConcurrent = Math.max(maxConcurrent, log.filter((o) => o.start <= r.start && o.end > r.start).length);
  assert.equal(maxConcurrent, 2);
});

test('robots: Crawl-delay above fetcher.max.crawl.delay -> fetch_gone, nothing requested', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 3, linksPerPage: 1, robots: { crawlDelay: (h) => (h === 1 ? 60 : undefined) } });
  t.after(() => web.close());
  const ctx = fetchContext(t);
  const seg = await generateSegment(ctx, [web.allUrls()]);
  const counters = await fetch(ctx, { segment: seg, threads: 4 });
  assert.equal(counters.robots_denied_maxcrawldelay, 3);
  assert.equal(counters.success, 3);
  assert.equal(pages(web.requestLog.get(web.hosts[1]!)).length, 0);
  const fetched = await readPart(ctx, seg, 'crawl_fetch');
  assert.ok(fetched.filter((r) => r.url.includes(web.hosts[1]!)).every((r) => r.value.metaData._pst_![0]!.startsWith('robots_denied(18)')));
});

test('robots: 503 on robots.txt defers the whole queue (fetch_retry), other hosts fetched', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 3, linksPerPage: 1, robots: { status: (h) => (h === 0 ? 503 : 200) } });
  t.after(() => web.close());
  const ctx = fetchContext(t);
  const seg = await generateSegment(ctx, [web.allUrls()]);
  const counters = await fetch(ctx, { segment: seg, threads: 1 });
  assert.equal(counters.success, 3);
  assert.equal(counters.robots_defer_visits, 1);
  assert.equal(counters.robots_defer_visits_dropped, 2);
  assert.equal(pages(web.requestLog.get(web.hosts[0]!)).length, 0);
  const fetched = await readPart(ctx, seg, 'crawl_fetch');
  assert.equal(fetched.filter((r) => r.url.includes(web.hosts[0]!) && r.value.status === 0x22).length, 3);
});
