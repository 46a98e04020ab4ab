import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestWeb } from '../web/test-web.js';
import { fetch } from '../../core/crawl/fetch/fetcher.js';
import { fetchContext, generateSegment, readPart } from './fetch-helpers.js';
import { tempDir } from '../helpers/temp-dir.js';
import { storageDefine } from '../helpers/test-storage.js';

const child = fileURLToPath(new URL('./fetch-child.ts', import.meta.url));

test('resume: a fetch killed with SIGKILL resumes on the same segment, skipping what it stored', async (t) => {
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 20, linksPerPage: 1 });
  t.after(() => web.close());
  const defines = { 'http.agent.name': 'TestBot', 'plugin.includes': 'protocol-http', 'fetcher.server.delay': '0.01', 'storage.batch.size': '2' };
  const ctx = fetchContext(t, defines);
  const seg = await generateSegment(ctx, [web.allUrls()]);
  // the child opens the context's stores (its storage.url on PostgreSQL)
  const childDefines = { ...defines, ...Object.fromEntries(storageDefine(ctx).map((d) => d.split(/=(.*)/s).slice(0, 2))) };
  const proc = spawn(process.execPath, ['--import', 'tsx', child, seg, tempDir(t), JSON.stringify(childDefines)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let pages = 0;
  let stderr = '';
  proc.stderr.on('data', (d) => (stderr += d));
  await new Promise<void>((resolve, reject) => {
    proc.stdout.setEncoding('utf8').on('data', (d: string) => {
      pages += d.split('\n').filter((l) => l.startsWith('page ')).length;
      if (pages >= 7 && proc.exitCode === null) proc.kill('SIGKILL');
    });
    proc.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child ended ${code} ${signal}: ${stderr}`))));
  });
  const before = await readPart(ctx, seg, 'crawl_fetch');
  assert.ok(before.length >= 4 && before.length < 20, `stored before kill: ${before.length}`);
  const s = await ctx.storage.openSegment(seg);
  assert.equal(await s.isComplete('crawl_fetch'), false);
  await s.close();
  const counters = await fetch(ctx, { segment: seg });
  assert.equal(counters.resumed_skipped, before.length);
  const after = await readPart(ctx, seg, 'crawl_fetch');
  assert.deepEqual(after.map((r) => r.url).sort(), web.allUrls().sort(), 'every URL once');
  for (const r of before) assert.equal(web.requestsFor(r.url).length, 1, `${r.url} fetched again`);
  const content = await readPart(ctx, seg, 'content');
  assert.equal(new Set(content.map((c) => c.url)).size, content.length, 'no duplicate content');
  assert.equal(content.length, 20);
});

test('abort: polite stop commits what was fetched, no _SUCCESS; a re-run completes', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 15, linksPerPage: 1, latencyMs: 10 });
  t.after(() => web.close());
  const ctx = fetchContext(t, { 'fetcher.server.delay': '0.02', 'storage.batch.size': '3' });
  const seg = await generateSegment(ctx, [web.allUrls()]);
  const ac = new AbortController();
  let seen = 0;
  const counters = await fetch(ctx, { segment: seg, threads: 2 }, { signal: ac.signal, onProgress: (e) => { if (e.type === 'page' && ++seen === 6) ac.abort(); } });
  assert.equal(counters.stopped_by_abort, 1);
  const stored = await readPart(ctx, seg, 'crawl_fetch');
  assert.ok(stored.length >= 6 && stored.length < 30, `stored ${stored.length}`);
  const requested = [...web.requestLog.values()].flat().filter((r) => r.path !== '/robots.txt').length;
  assert.ok(requested <= stored.length + 2, 'no new requests after the abort');
  const s = await ctx.storage.openSegment(seg);
  assert.equal(await s.isComplete('crawl_fetch'), false);
  await s.close();
  await fetch(ctx, { segment: seg, threads: 4 });
  assert.equal((await readPart(ctx, seg, 'crawl_fetch')).length, 30);
});
