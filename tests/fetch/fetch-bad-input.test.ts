import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestWeb } from '../web/test-web.js';
import { fetch } from '../../core/crawl/fetch/fetcher.js';
import { statusName } from '../../core/model/crawl-datum.js';
import { fetchContext, generateSegment, readPart } from './fetch-helpers.js';

test('bad servers: the fetch finishes and every URL gets its status', async (t) => {
  const robots = [
    'User-agent: *\n' + '# padding\n'.repeat(70_000) + 'Disallow: /\n', // huge: rules past 500 KiB ignored
    String.fromCharCode(...Array.from({ length: 2000 }, (_, i) => (i * 31) % 256)), // binary
    '<html><body><h1>Robots</h1></body></html>', // HTML
  ];
  const web = await startTestWeb({ hosts: 3, pagesPerHost: 2, linksPerPage: 1, robots: { text: (h) => robots[h]! } });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'http.timeout': '1000', 'http.time.limit': '3', 'http.content.limit': '100000' });
  const urls = {
    page0: web.url(0, '/page/1.html'),
    page1: web.url(1, '/page/1.html'),
    page2: web.url(2, '/page/1.html'),
    hang: web.url(0, '/special/hang'),
    trickle: web.url(1, '/special/trickle?bytes=5000&interval=100'),
    big: web.url(2, '/special/big?bytes=50000000'),
    bomb: web.url(0, '/special/gzip-stream?bytes=30000000'), // streamed: gzipSync of 30 MB would block this process past http.time.limit
    garbage: web.url(1, '/special/garbage'),
    reset: web.url(2, '/special/reset'),
    tls: `https://${web.hosts[0]}/tls`,
    malformed: 'http://[bad/',
  };
  const seg = await generateSegment(ctx, [Object.values(urls)]);
  const rss0 = process.memoryUsage().rss;
  // No wall-clock assertion (the machine may be loaded): the statuses below show each limit fired.
  const counters = await fetch(ctx, { segment: seg, threads: 10 });
  assert.ok(process.memoryUsage().rss - rss0 < 150 * 1024 * 1024, 'memory bounded');
  const recs = new Map((await readPart(ctx, seg, 'crawl_fetch')).map((r) => [r.url, r.value]));
  const content = new Map((await readPart(ctx, seg, 'content')).map((r) => [r.url, r.value]));
  const st = (k: keyof typeof urls) => statusName(recs.get(urls[k])!.status);
  assert.equal(st('page0'), 'fetch_success', 'huge robots.txt: rules past 500 KiB ignored');
  assert.equal(st('page1'), 'fetch_success', 'binary robots.txt: allow all');
  assert.equal(st('page2'), 'fetch_success', 'HTML robots.txt: allow all');
  assert.equal(st('hang'), 'fetch_retry');
  assert.equal(st('trickle'), 'fetch_success');
  assert.deepEqual(content.get(urls.trickle)!.metadata['nutch.content.truncated'], ['TIME']);
  assert.equal(content.get(urls.big)!.content.length, 100000);
  assert.equal(content.get(urls.bomb)!.content.length, 100000);
  assert.equal(st('garbage'), 'fetch_retry');
  assert.equal(st('reset'), 'fetch_success');
  assert.deepEqual(content.get(urls.reset)!.metadata['nutch.content.truncated'], ['DISCONNECT']);
  assert.equal(st('tls'), 'fetch_retry');
  assert.equal(recs.has(urls.malformed), false);
  assert.equal(counters.skipped, 1, 'malformed URL counted and skipped');
});
