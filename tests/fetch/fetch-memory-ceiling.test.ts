/**
 * One response can never take the fetch down: whatever http.content.limit says (-1, 1 GiB), a body is
 * held up to fetcher.content.ceiling only — 2 GiB bodies, gzip bombs and endless bodies are stored
 * truncated and flagged, the other pages of the segment are kept, and the fetch's peak memory stays a
 * small multiple of the ceiling. The servers generate their bytes as the client reads them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startTestWeb } from '../web/test-web.js';
import { spawnNutch } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { sqliteOnly, storageArgs } from '../helpers/test-storage.js';
import { statusName } from '../../core/model/crawl-datum.js';
import { fetchContext, generateSegment, readPart } from './fetch-helpers.js';

const MiB = 1024 * 1024;
const CEILING = 16 * MiB;
const TWO_GIB = 2 * 1024 * MiB;
const reportRss = pathToFileURL(fileURLToPath(new URL('../helpers/report-max-rss.mjs', import.meta.url))).href;

{
  const limit = '-1';
  test('nutch fetch with http.content.limit=-1: 2 GiB body, 2 GiB gzip bomb and an endless body stop at the ceiling; the good page is kept', async (t) => {
    const web = await startTestWeb({ hosts: 4, pagesPerHost: 2, linksPerPage: 1 });
    t.after(() => web.close());
    const ctx = fetchContext(t);
    const urls = {
      good: web.url(0, '/page/1.html'),
      big: web.url(1, `/special/big?bytes=${TWO_GIB}`),
      bomb: web.url(2, `/special/gzip-stream?bytes=${TWO_GIB}`),
      endless: web.url(3, '/special/endless'),
    };
    const seg = await generateSegment(ctx, [Object.values(urls)]);
    const cwd = tempDir(t);
    const r = await spawnNutch(['fetch', '-D', 'http.agent.name=CeilingBot', '-D', 'fetcher.server.delay=0', '-D', 'plugin.includes=protocol-http',
      '-D', `http.content.limit=${limit}`, '-D', `fetcher.content.ceiling=${CEILING}`, '-D', 'http.time.limit=60', ...storageArgs(ctx), seg, '-threads', '4'],
    { cwd, env: { NUTCH_CONF_DIR: cwd, NODE_OPTIONS: `--import=${reportRss}` } });
    assert.equal(r.code, 0, r.stderr);
    const recs = new Map((await readPart(ctx, seg, 'crawl_fetch')).map((x) => [x.url, x.value]));
    const content = new Map((await readPart(ctx, seg, 'content')).map((x) => [x.url, x.value]));
    for (const url of Object.values(urls)) assert.equal(statusName(recs.get(url)!.status), 'fetch_success', url);
    assert.ok(content.get(urls.good)!.content.length > 100);
    assert.equal(content.get(urls.good)!.metadata['nutch.content.truncated'], undefined);
    for (const key of ['big', 'bomb', 'endless'] as const) {
      const c = content.get(urls[key])!;
      assert.equal(c.content.length, CEILING, `${key} held up to the ceiling`);
      assert.deepEqual(c.metadata['nutch.content.truncated'], ['LENGTH'], key);
    }
    const maxRss = Number(/maxRSS=(\d+)/.exec(r.stderr)?.[1]);
    assert.ok(maxRss > 0, 'the child reported its peak RSS');
    // three responses at the ceiling in flight at once; the old reader held 2 GiB each (3+ GB, then a crash)
    assert.ok(maxRss < 300 * MiB + 8 * CEILING, `peak RSS ${Math.round(maxRss / MiB)} MiB`);
  });
}

test('http.content.limit=1 GiB is capped by the ceiling too', async (t) => {
  const { fetch } = await import('../../core/crawl/fetch/fetcher.js');
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 1, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'http.content.limit': String(1024 * MiB), 'fetcher.content.ceiling': String(4 * MiB) });
  const big = web.url(0, `/special/big?bytes=${TWO_GIB}`);
  const bomb = web.url(1, `/special/gzip-stream?bytes=${TWO_GIB}`);
  const seg = await generateSegment(ctx, [[big, bomb]]);
  await fetch(ctx, { segment: seg, threads: 2 });
  const content = await readPart(ctx, seg, 'content');
  assert.equal(content.length, 2);
  for (const { url, value } of content) {
    assert.equal(value.content.length, 4 * MiB, url);
    assert.deepEqual(value.metadata['nutch.content.truncated'], ['LENGTH'], url);
  }
});

test('http.time.limit stops a never-ending body even with http.content.limit=-1; the page is kept, flagged TIME', async (t) => {
  const { fetch } = await import('../../core/crawl/fetch/fetcher.js');
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 1, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'http.content.limit': '-1', 'http.time.limit': '1' });
  const endless = web.url(0, '/special/endless?chunk=2048&interval=10');
  const seg = await generateSegment(ctx, [[endless]]);
  await fetch(ctx, { segment: seg });
  const [stored] = await readPart(ctx, seg, 'content');
  assert.deepEqual(stored!.value.metadata['nutch.content.truncated'], ['TIME']);
  assert.ok(stored!.value.content.length > 0 && stored!.value.content.length < CEILING);
});

test('a segment write that fails stops the fetch with a storage error, not a protocol failure; a re-run resumes', sqliteOnly('the write is broken through SQLite\'s rollback journal; on PostgreSQL the server stopped mid-session is tests/storage/postgres-engine.test.ts'), async (t) => {
  const { fetch } = await import('../../core/crawl/fetch/fetcher.js');
  const { mkdirSync, rmSync, readdirSync } = await import('node:fs');
  const { join } = await import('node:path');
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 4, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'storage.batch.size': '1' });
  const seg = await generateSegment(ctx, [web.allUrls()]);
  // After the first page is committed, a directory where SQLite puts its rollback journal makes the
  // next write transaction of the content part fail, as a full or broken disk would.
  let blocked = '';
  const err = await fetch(ctx, { segment: seg, threads: 1 }, {
    onProgress(e) {
      if (e.type !== 'page' || blocked) return;
      const dir = join(seg, 'content');
      const part = readdirSync(dir).find((f) => /^part-\d+$/.test(f))!;
      blocked = join(dir, `${part}-journal`);
      mkdirSync(blocked);
    },
  }).then(() => null, (e: unknown) => e as { code?: string; message: string });
  assert.ok(err, 'the fetch failed');
  assert.match(String(err.code), /^NUTCH_(STORAGE|LEASE)_/, err.message);
  assert.equal(ctx.log.records.some((r) => /Protocol/.test(JSON.stringify(r)) && r.level !== 'debug'), false, 'not blamed on the protocol');
  rmSync(blocked, { recursive: true });
  const again = await fetch(ctx, { segment: seg, threads: 1 });
  assert.ok((again.resumed_skipped ?? 0) >= 1, JSON.stringify(again));
  const fetched = await readPart(ctx, seg, 'crawl_fetch');
  assert.deepEqual(new Set(fetched.map((r) => r.url)), new Set(web.allUrls()));
  assert.equal(fetched.length, web.allUrls().length, 'no page fetched twice');
});

test('fetcher.content.budget bounds the bytes held by all in-flight responses; a refused response is retried, not truncated', async (t) => {
  const { fetch } = await import('../../core/crawl/fetch/fetcher.js');
  const hosts = 6;
  const web = await startTestWeb({ hosts, pagesPerHost: 1, linksPerPage: 1 });
  t.after(() => web.close());
  const budget = 8 * MiB;
  const ctx = fetchContext(t, { 'http.content.limit': '-1', 'fetcher.content.ceiling': String(4 * MiB), 'fetcher.content.budget': String(budget) });
  const urls = Array.from({ length: hosts }, (_, h) => web.url(h, '/special/endless?chunk=65536&interval=1'));
  const seg = await generateSegment(ctx, [urls]);
  const counters = await fetch(ctx, { segment: seg, threads: hosts });
  assert.ok(counters.content_budget_peak! <= budget, `peak ${counters.content_budget_peak}`);
  const recs = new Map((await readPart(ctx, seg, 'crawl_fetch')).map((x) => [x.url, x.value]));
  const content = new Map((await readPart(ctx, seg, 'content')).map((x) => [x.url, x.value]));
  let ok = 0;
  for (const url of urls) {
    const st = statusName(recs.get(url)!.status);
    if (st === 'fetch_success') {
      ok++;
      assert.equal(content.get(url)!.content.length, 4 * MiB, url);
    } else {
      assert.equal(st, 'fetch_retry', url);
      assert.match(recs.get(url)!.metaData._pst_?.[0] ?? '', /fetcher\.content\.budget/);
    }
  }
  assert.ok(ok >= 1, 'a refusal frees room: some responses complete');
  assert.equal(counters.content_budget_refused ?? 0, hosts - ok);
  assert.ok((counters.content_budget_refused ?? 0) >= 1, 'six 4 MiB bodies at once do not fit in 8 MiB');
});
