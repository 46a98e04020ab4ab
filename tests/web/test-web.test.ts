import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { request } from 'undici';
import { startTestWeb } from './test-web.js';
import { startTestWebProcess } from '../../bench/lib/test-web-process.js';

async function get(url: string, headers: Record<string, string> = {}) {
  const r = await request(url, { headers });
  const body = Buffer.from(await r.body.arrayBuffer());
  return { status: r.statusCode, headers: r.headers, body };
}

test('test web serves many hosts with the links it reports', async () => {
  const web = await startTestWeb({ hosts: 3, pagesPerHost: 5, linksPerPage: 8, externalLinkRatio: 0.3, robots: { crawlDelay: 1 }, seed: 7 });
  try {
    assert.equal(web.seeds.length, 3);
    assert.match(web.seeds[0]!, /^http:\/\/127\.0\.0\.2:\d+\/$/);
    assert.match(web.seeds[2]!, /^http:\/\/127\.0\.0\.4:\d+\/$/);
    assert.equal(web.allUrls().length, 15);
    const home = await get(web.seeds[1]!);
    assert.equal(home.status, 200);
    const html = home.body.toString();
    assert.match(html, /<title>Host 1 page 0<\/title>/);
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, '&'), web.seeds[1]).href);
    assert.deepEqual(hrefs, web.linksOf(web.seeds[1]!));
    assert.equal(hrefs.length, 8);
    assert.ok(hrefs.some((h) => !h.startsWith(web.seeds[1]!)), 'some cross-host links');
    const robots = await get(web.url(0, '/robots.txt'));
    assert.equal(robots.body.toString(), 'User-agent: *\nDisallow: /private/\nCrawl-delay: 1\n');
    assert.equal((await get(web.url(0, '/missing/x.html'))).status, 404);
    const again = await startTestWeb({ hosts: 3, pagesPerHost: 5, linksPerPage: 8, externalLinkRatio: 0.3, seed: 7 });
    try {
      assert.deepEqual(again.linksOf(again.seeds[1]!).map((u) => new URL(u).pathname), web.linksOf(web.seeds[1]!).map((u) => new URL(u).pathname));
    } finally {
      await again.close();
    }
    const log = web.requestLog.get(web.hosts[1]!)!;
    assert.equal(log.length, 1);
    assert.equal(log[0]!.path, '/');
    assert.ok(log[0]!.end >= log[0]!.start);
  } finally {
    await web.close();
  }
});

test('test web redirects, compresses, and applies latency', async () => {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 3, linksPerPage: 2, latencyMs: 30 });
  try {
    const r = await get(web.url(0, '/redirect/301/2'));
    assert.equal(r.status, 301);
    assert.equal(r.headers.location, '/page/2.html');
    const t0 = performance.now();
    const gz = await get(web.url(0, '/special/gzip'));
    assert.ok(performance.now() - t0 >= 25);
    assert.match(gunzipSync(gz.body).toString(), /Host 0 page 0/);
    const br = await get(web.url(0, '/special/br'));
    assert.match(brotliDecompressSync(br.body).toString(), /Host 0 page 0/);
    assert.equal((await get(web.url(0, '/special/last-modified'), { 'if-modified-since': new Date(Date.UTC(2021, 0, 1)).toUTCString() })).status, 304);
    assert.equal((await get(web.url(0, '/special/last-modified'))).status, 200);
    const ra = await get(web.url(0, '/special/status/503?retry-after=2'));
    assert.equal(ra.status, 503);
    assert.equal(ra.headers['retry-after'], '2');
    await assert.rejects(get(web.url(0, '/special/garbage')));
  } finally {
    await web.close();
  }
});

test('test web runs in a child process and answers linksOf in the parent', async () => {
  const web = await startTestWebProcess({ hosts: 2, pagesPerHost: 4, linksPerPage: 3 });
  try {
    const r = await get(web.seeds[0]!);
    const hrefs = [...r.body.toString().matchAll(/href="([^"]+)"/g)].map((m) => new URL(m[1]!, web.seeds[0]).href);
    assert.deepEqual(hrefs, web.linksOf(web.seeds[0]!));
    const s = await web.stats();
    assert.equal(s.requests, 1);
  } finally {
    await web.close();
  }
});

test('test web: redirect and 404 links when asked, hosts beyond 127.0.0.254', async () => {
  const web = await startTestWeb({ hosts: 260, pagesPerHost: 2, linksPerPage: 40, redirects: 0.3, notFoundRatio: 0.2, externalLinkRatio: 0 });
  try {
    assert.equal(new Set(web.hosts.map((h) => h.split(':')[0])).size, 260);
    assert.match(web.seeds[259]!, /^http:\/\/127\.0\.1\.\d+:\d+\/$/);
    const links = web.linksOf(web.seeds[259]!);
    assert.ok(links.some((l) => /\/redirect\/30[12]\/\d+$/.test(l)));
    assert.ok(links.some((l) => /\/missing\//.test(l)));
    const r = await get(links.find((l) => l.includes('/missing/'))!);
    assert.equal(r.status, 404);
    assert.equal((await get(web.seeds[259]!)).status, 200);
  } finally {
    await web.close();
  }
});
