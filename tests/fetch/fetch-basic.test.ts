import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestWeb } from '../web/test-web.js';
import { fetch } from '../../core/crawl/fetch/fetcher.js';
import { statusName } from '../../core/model/crawl-datum.js';
import { fetchContext, generateSegment, readPart } from './fetch-helpers.js';

test('fetch: every page of the test web, statuses and content stored, _SUCCESS at the end', async (t) => {
  const web = await startTestWeb({ hosts: 4, pagesPerHost: 6, linksPerPage: 3, robots: true });
  t.after(() => web.close());
  const ctx = fetchContext(t);
  const urls = [...web.allUrls(), web.url(0, '/missing/1.html'), web.url(1, '/private/2.html'), web.url(2, '/gone/x')];
  const seg = await generateSegment(ctx, [urls.slice(0, 14), urls.slice(14)]);
  const counters = await fetch(ctx, { segment: seg, threads: 8 });
  assert.equal(counters.success, 24);
  assert.equal(counters.notfound, 1);
  assert.equal(counters.robots_denied, 1);
  assert.equal(counters.gone, 1);
  const fetched = await readPart(ctx, seg, 'crawl_fetch');
  assert.equal(fetched.length, urls.length);
  const byUrl = new Map(fetched.map((r) => [r.url, r.value]));
  assert.equal(statusName(byUrl.get(web.seeds[0]!)!.status), 'fetch_success');
  assert.equal(statusName(byUrl.get(web.url(0, '/missing/1.html'))!.status), 'fetch_gone');
  assert.equal(statusName(byUrl.get(web.url(1, '/private/2.html'))!.status), 'fetch_gone');
  assert.match(byUrl.get(web.url(1, '/private/2.html'))!.metaData._pst_![0]!, /^robots_denied\(18\)/);
  const content = await readPart(ctx, seg, 'content');
  assert.ok(content.some((c) => c.url === web.seeds[1] && /Host 1 page 0/.test(Buffer.from(c.value.content).toString())));
  assert.equal(web.requestsFor(web.url(1, '/private/2.html')).length, 0, 'robots-disallowed URL never requested');
  const s = await ctx.storage.openSegment(seg);
  assert.equal(await s.isComplete('crawl_fetch'), true);
  assert.equal(await s.isComplete('content'), true);
  await s.close();
  await assert.rejects(fetch(ctx, { segment: seg }), { code: 'NUTCH_SEGMENT_ALREADY_FETCHED' });
});

test('fetch: refuses without http.agent.name', async (t) => {
  const ctx = fetchContext(t, { 'http.agent.name': '' });
  const seg = await generateSegment(ctx, [['http://127.0.0.1:1/']]);
  await assert.rejects(fetch(ctx, { segment: seg }), { code: 'NUTCH_CONFIG_MISSING_AGENT' });
});

test('fetch: output per crawl_generate partition; byDomain queue mode', async (t) => {
  const web = await startTestWeb({ hosts: 3, pagesPerHost: 2, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'fetcher.queue.mode': 'byDomain' });
  const all = web.allUrls();
  const seg = await generateSegment(ctx, [all.slice(0, 2), all.slice(2, 4), all.slice(4)]);
  await fetch(ctx, { segment: seg, threads: 3 });
  const s = await ctx.storage.openSegment(seg);
  t.after(() => s.close());
  assert.deepEqual(await s.partitions('crawl_fetch'), [0, 1, 2]);
  for (let p = 0; p < 3; p++) {
    const urls: string[] = [];
    for await (const r of s.read('crawl_fetch', { partition: p })) urls.push(r.url);
    assert.deepEqual(urls.sort(), all.slice(p * 2, p * 2 + 2).sort());
  }
});

test('fetch: fetcher.throughput.threshold.pages stops a slow fetch', async (t) => {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 60, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'fetcher.server.delay': '0.05', 'fetcher.throughput.threshold.pages': '1000', 'fetcher.throughput.threshold.check.after': '0', 'fetcher.throughput.threshold.retries': '0' });
  const seg = await generateSegment(ctx, [web.allUrls()]);
  const counters = await fetch(ctx, { segment: seg });
  assert.ok(counters.hitByThrougputThreshold! > 10, JSON.stringify(counters));
  assert.ok(counters.success! < 40);
});

test('fetch: an agent name holding a digit obeys its own robots.txt group, not *', async (t) => {
  const robots = 'User-agent: *\nAllow: /\n\nUser-agent: crawler2\nDisallow: /page/\n';
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 4, linksPerPage: 2, robots: { text: () => robots } });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'http.agent.name': 'crawler2' });
  const urls = web.allUrls();
  const seg = await generateSegment(ctx, [urls]);
  const counters = await fetch(ctx, { segment: seg, threads: 2 });
  const denied = urls.filter((u) => new URL(u).pathname.startsWith('/page/'));
  assert.ok(denied.length >= 3);
  assert.equal(counters.robots_denied, denied.length);
  for (const u of denied) assert.equal(web.requestsFor(u).length, 0, `${u} is disallowed for crawler2 and never requested`);
  assert.equal(web.requestsFor(web.seeds[0]!).length, 1);
});
