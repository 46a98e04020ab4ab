import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestWeb } from '../web/test-web.js';
import { fetch } from '../../core/crawl/fetch/fetcher.js';
import { statusName } from '../../core/model/crawl-datum.js';
import { fetchContext, generateSegment, readPart } from './fetch-helpers.js';

test('redirects, http.redirect.max 0: redirect recorded, target written as linked for the next round', async (t) => {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 4, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t);
  const deepTarget = web.url(0, '/page/1.html/a/b/c');
  const toDeeper = web.url(0, `/special/redirect-to?url=${encodeURIComponent(deepTarget)}`);
  const seg = await generateSegment(ctx, [[web.url(0, '/redirect/301/2'), web.url(0, '/redirect/302/3'), toDeeper]]);
  const counters = await fetch(ctx, { segment: seg });
  assert.equal(counters.moved, 1);
  assert.equal(counters.temp_moved, 2);
  assert.equal(web.requestsFor(web.url(0, '/page/2.html')).length, 0, 'target not fetched now');
  const recs = new Map((await readPart(ctx, seg, 'crawl_fetch')).map((r) => [r.url, r.value]));
  assert.equal(statusName(recs.get(web.url(0, '/redirect/301/2'))!.status), 'fetch_redir_perm');
  assert.equal(statusName(recs.get(web.url(0, '/redirect/302/3'))!.status), 'fetch_redir_temp');
  assert.equal(statusName(recs.get(web.url(0, '/page/2.html'))!.status), 'linked');
  assert.equal(statusName(recs.get(web.url(0, '/page/3.html'))!.status), 'linked');
  // The representative URL, by URLUtil.chooseRepr as Nutch's fetcher: a permanent redirect from a
  // page that is not a root keeps the target; a temporary one keeps the URL with fewer path segments.
  assert.deepEqual(recs.get(web.url(0, '/page/2.html'))!.metaData._repr_, [web.url(0, '/page/2.html')]);
  assert.deepEqual(recs.get(web.url(0, '/page/3.html'))!.metaData._repr_, [web.url(0, '/page/3.html')]);
  assert.deepEqual(recs.get(deepTarget)!.metaData._repr_, [toDeeper]);
});

test('redirects, http.redirect.max 3: followed now; loops end as fetch_gone REDIR_EXCEEDED; other schemes not followed', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 4, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'http.redirect.max': '3' });
  const seg = await generateSegment(ctx, [[
    web.url(0, '/redirect/301/2'),
    web.url(0, '/special/loop/0'),
    web.url(1, `/special/redirect-to?url=${encodeURIComponent(web.url(0, '/page/1.html'))}`),
    web.url(1, '/special/redirect-to?url=ftp%3A%2F%2Ffiles.test%2Fx'),
    web.url(1, '/special/redirect-to?url=%2Fspecial%2Fredirect-to%3Furl%3Dx'),
  ]]);
  const counters = await fetch(ctx, { segment: seg });
  const recs = new Map((await readPart(ctx, seg, 'crawl_fetch')).map((r) => [r.url, r.value]));
  assert.equal(statusName(recs.get(web.url(0, '/page/2.html'))!.status), 'fetch_success');
  assert.equal(statusName(recs.get(web.url(0, '/page/1.html'))!.status), 'fetch_success', 'cross-host redirect followed');
  assert.equal(statusName(recs.get(web.url(0, '/special/loop/3'))!.status), 'fetch_redir_temp');
  const exceeded = recs.get(web.url(0, '/special/loop/4'))!;
  assert.equal(statusName(exceeded.status), 'fetch_gone');
  assert.match(exceeded.metaData._pst_![0]!, /^redir_exceeded\(19\)/);
  assert.equal(web.requestsFor(web.url(0, '/special/loop/4')).length, 0);
  assert.equal(counters.redirect_count_exceeded, 1);
  assert.equal(counters.redirect_unsupported_scheme, 1);
});

test('errors: 500 retried, exceptions per queue drop the rest of the queue, connection refused', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 2, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'fetcher.max.exceptions.per.queue': '2' });
  const bad = [1, 2, 3, 4, 5].map((i) => web.url(0, `/special/status/500?i=${i}`));
  const seg = await generateSegment(ctx, [[...bad, web.seeds[1]!, 'http://127.0.0.1:1/refused', web.url(1, '/special/garbage')]]);
  const counters = await fetch(ctx, { segment: seg, threads: 1 });
  assert.equal(web.requestLog.get(web.hosts[0]!)!.filter((r) => r.path.startsWith('/special/status/500')).length, 2);
  assert.equal(counters.AboveExceptionThresholdInQueue, 3);
  assert.equal(counters.success, 1);
  const recs = new Map((await readPart(ctx, seg, 'crawl_fetch')).map((r) => [r.url, r.value]));
  assert.equal(statusName(recs.get(bad[0]!)!.status), 'fetch_retry');
  assert.equal(statusName(recs.get('http://127.0.0.1:1/refused')!.status), 'fetch_retry');
  assert.equal(statusName(recs.get(web.url(1, '/special/garbage'))!.status), 'fetch_retry');
  assert.equal(recs.has(bad[4]!), false, 'dropped URLs are not written (fetched again on a later round)');
});

test('Retry-After of a 503 pauses that queue only', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 3, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t);
  const seg = await generateSegment(ctx, [[web.url(0, '/special/status/503?retry-after=1'), web.url(0, '/page/1.html'), web.url(1, '/'), web.url(1, '/page/1.html')]]);
  const counters = await fetch(ctx, { segment: seg, threads: 4 });
  assert.equal(counters.retry_after, 1);
  const log0 = web.requestLog.get(web.hosts[0]!)!.filter((r) => r.path !== '/robots.txt');
  assert.ok(log0[1]!.start - log0[0]!.end >= 990, `second request after ${(log0[1]!.start - log0[0]!.end).toFixed(0)} ms`);
  const log1 = web.requestLog.get(web.hosts[1]!)!.filter((r) => r.path !== '/robots.txt');
  assert.ok(log1[1]!.start < log0[1]!.start, 'the other host is not paused');
});

test('time limit: fetcher.timelimit.mins empties the queues and the fetch completes', async (t) => {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 40, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'fetcher.server.delay': '0.05', 'fetcher.timelimit.mins': '0.005' });
  const seg = await generateSegment(ctx, [web.allUrls()]);
  const counters = await fetch(ctx, { segment: seg });
  // 40 pages 50 ms apart need 2 s; the limit is 0.3 s. How many fit before it depends on the machine's
  // load, so the test asserts what the limit guarantees: the rest were dropped, and every URL is accounted for.
  assert.ok(counters.hitByTimeLimit! > 0, JSON.stringify(counters));
  assert.equal((counters.success ?? 0) + counters.hitByTimeLimit!, 40, JSON.stringify(counters));
  const s = await ctx.storage.openSegment(seg);
  assert.equal(await s.isComplete('crawl_fetch'), true);
  await s.close();
});

test('fetcher.store.content false keeps crawl_fetch only; fetcher.parse without a parser warns once', async (t) => {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 3, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'fetcher.store.content': 'false', 'fetcher.parse': 'true' });
  const seg = await generateSegment(ctx, [web.allUrls()]);
  await fetch(ctx, { segment: seg });
  assert.equal((await readPart(ctx, seg, 'crawl_fetch')).length, 3);
  assert.equal((await readPart(ctx, seg, 'content')).length, 0);
  assert.equal(ctx.log.records.filter((r) => r.level === 'warn' && /fetcher.parse/.test(r.msg)).length, 1);
});

test('fetcher.parse with a parse hook: called once per successful page', async (t) => {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 3, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'fetcher.parse': 'true' });
  const seg = await generateSegment(ctx, [[...web.allUrls(), web.url(0, '/missing/x')]]);
  const seen: string[] = [];
  await fetch(ctx, { segment: seg, parse: async (content, datum, info) => {
    assert.equal(datum.status, 0x21);
    assert.equal(info.partition, 0);
    seen.push(content.url);
  } });
  assert.deepEqual(seen.sort(), web.allUrls().sort());
});

test('a Protocol plugin that throws: fetch_retry, logged and reported with the extension id', async (t) => {
  const { fixtureContext } = await import('../helpers/context.js');
  const { tempDir } = await import('../helpers/temp-dir.js');
  const ctx = Object.assign(fixtureContext(t, {
    includeBuiltins: false,
    defines: { 'http.agent.name': 'TestBot', 'fetcher.server.delay': '0' },
    plugins: [{ id: 'protocol-broken', extensions: [{ point: 'Protocol', parameters: { protocolName: 'broken' }, implementation: class {
      async getProtocolOutput(): Promise<never> { throw new Error('boom'); }
    } }] }],
  }), { crawlDir: tempDir(t) });
  const seg = await generateSegment(ctx, [['broken://a/1', 'broken://a/2']]);
  const errors: string[] = [];
  const counters = await fetch(ctx, { segment: seg }, { onProgress: (e) => { if (e.type === 'error') errors.push(`${e.code} ${e.url} ${e.message}`); } });
  assert.equal(counters.exception, 2);
  assert.deepEqual(errors.sort(), ['NUTCH_EXTENSION_FAILED broken://a/1 boom', 'NUTCH_EXTENSION_FAILED broken://a/2 boom']);
  const recs = await readPart(ctx, seg, 'crawl_fetch');
  assert.ok(recs.every((r) => statusName(r.value.status) === 'fetch_retry'));
  assert.ok(ctx.log.records.some((r) => r.level === 'warn' && r.fields?.extension === 'protocol-broken'));
});

test('fetcher.parse: parsed before crawl_fetch is written (the signature is stored); parses bounded by threads', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 6, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'fetcher.parse': 'true' });
  const seg = await generateSegment(ctx, [web.allUrls()]);
  let pending = 0;
  let maxPending = 0;
  let parsed = 0;
  await fetch(ctx, { segment: seg, threads: 2, parse: async (content, datum) => {
    maxPending = Math.max(maxPending, ++pending);
    await new Promise((r) => setTimeout(r, 30));
    datum.signature = new Uint8Array([content.content.length & 255, 7]);
    pending--;
    parsed++;
  } });
  assert.equal(parsed, 12);
  assert.ok(maxPending <= 2, `pending parses ${maxPending}`);
  const recs = await readPart(ctx, seg, 'crawl_fetch');
  assert.ok(recs.every((r) => r.value.signature?.[1] === 7), 'signature set by the parse is in crawl_fetch');
});

test('a Protocol plugin whose start() throws fails the fetch before anything is written', async (t) => {
  const { fixtureContext } = await import('../helpers/context.js');
  const { tempDir } = await import('../helpers/temp-dir.js');
  const ctx = Object.assign(fixtureContext(t, {
    includeBuiltins: false,
    defines: { 'http.agent.name': 'TestBot' },
    plugins: [{ id: 'protocol-unstartable', start() { throw new Error('no network today'); }, extensions: [{ point: 'Protocol', parameters: { protocolName: 'broken' }, implementation: class {
      async getProtocolOutput(): Promise<never> { throw new Error('unreachable'); }
    } }] }],
  }), { crawlDir: tempDir(t) });
  const seg = await generateSegment(ctx, [['broken://a/1']]);
  await assert.rejects(fetch(ctx, { segment: seg }), (err: { code?: string; message: string }) => err.code === 'NUTCH_PLUGIN_START_FAILED' && /protocol-unstartable/.test(err.message));
  const s = await ctx.storage.openSegment(seg);
  assert.equal(await s.hasPart('crawl_fetch'), false, 'nothing written');
  await s.close();
});
