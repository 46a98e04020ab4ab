import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestWeb } from '../web/test-web.js';
import { runNutch } from '../helpers/cli.js';
import { fetchContext, generateSegment, readPart } from './fetch-helpers.js';
import { tempDir } from '../helpers/temp-dir.js';
import { storageArgs, storageDefine } from '../helpers/test-storage.js';

test('nutch fetch <segment> -threads N', async (t) => {
  const web = await startTestWeb({ hosts: 2, pagesPerHost: 3, linksPerPage: 1 });
  t.after(() => web.close());
  const ctx = fetchContext(t);
  const seg = await generateSegment(ctx, [web.allUrls()]);
  const cwd = tempDir(t);
  const defines = ['-D', 'http.agent.name=CliBot', '-D', 'fetcher.server.delay=0', '-D', 'plugin.includes=protocol-http', ...storageArgs(ctx)];
  const r = await runNutch(['fetch', ...defines, seg, '-threads', '3'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /fetch: done in .* success=6/);
  assert.equal((await readPart(ctx, seg, 'crawl_fetch')).length, 6);
  assert.equal(web.requestLog.get(web.hosts[0]!)![0]!.headers['user-agent'], 'CliBot/Nutch-1.21');
  const again = await runNutch(['fetch', ...defines, seg], { cwd });
  assert.equal(again.code, 3, 'already fetched');
  assert.match(again.stderr, /already fetched/);
  const noAgent = await runNutch(['fetch', seg, ...storageArgs(ctx)], { cwd });
  assert.notEqual(noAgent.code, 0);
  assert.match(noAgent.stderr, /http\.agent\.name/);
  assert.equal((await runNutch(['fetch'], { cwd })).code, 2);
});

test('nutch robotsparser: file and URL, Nutch\'s output lines, agent names', async (t) => {
  const cwd = tempDir(t);
  writeFileSync(join(cwd, 'robots.txt'), 'User-agent: *\nDisallow: /private/\n\nUser-agent: special\nDisallow: /\n');
  writeFileSync(join(cwd, 'urls.txt'), 'http://example.com/a\nhttp://example.com/private/b\n');
  const r = await runNutch(['robotsparser', 'robots.txt', 'urls.txt', 'mybot'], { cwd });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'allowed:\thttp://example.com/a\nnot allowed:\thttp://example.com/private/b\n');
  const s = await runNutch(['robotsparser', 'robots.txt', '-', 'Special'], { cwd, stdin: 'http://example.com/a\n' });
  assert.equal(s.stdout, 'not allowed:\thttp://example.com/a\n');
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 2, linksPerPage: 1, robots: { crawlDelay: 2 } });
  t.after(() => web.close());
  const u = await runNutch(['robotsparser', '-json', '-D', 'plugin.includes=protocol-http', web.seeds[0]!, '-stdin', 'mybot'], { cwd, stdin: `${web.url(0, '/private/1.html')}\n${web.url(0, '/page/1.html')}\n` });
  assert.equal(u.code, 0, u.stderr);
  assert.deepEqual(u.stdout.trim().split('\n').map((l) => JSON.parse(l)), [
    { url: web.url(0, '/private/1.html'), allowed: false, crawlDelay: 2000 },
    { url: web.url(0, '/page/1.html'), allowed: true, crawlDelay: 2000 },
  ]);
  assert.equal((await runNutch(['robotsparser', 'missing.txt', 'urls.txt'], { cwd })).code, 2);
});

test('nutch fetch status line off a TTY: done/total, pages/s, ETA, bytes, status mix, queues, busiest hosts', async () => {
  const { createProgressDisplay } = await import('../../sdk/cli/progress-display.js');
  const { PassThrough } = await import('node:stream');
  const out = new PassThrough();
  let text = '';
  out.on('data', (d) => (text += d));
  const show = createProgressDisplay(out, { plainIntervalMs: 0 });
  show({ type: 'stage-start', stage: 'fetch', round: 1 });
  for (const url of ['http://a.test/1', 'http://a.test/2', 'http://b.test/1']) show({ type: 'page', stage: 'fetch', url, status: 'fetch_success', ms: 3 });
  show({ type: 'progress', stage: 'fetch', done: 42, total: 84, counters: { success: 40, moved: 1, notfound: 1, bytes_downloaded: 3 * 1024 * 1024, pages_per_second: 7, active_queues: 3, queued: 9, in_flight: 2 } });
  show({ type: 'stage-end', stage: 'fetch', counters: { success: 40 }, ms: 5 });
  assert.match(text, /fetch: 42\/84 done \(50%\), 7\.0 pages\/s, ETA \d+:\d\d, 3\.0 MB, success=40 redirect=1 notfound=1 gone=0 robots_denied=0 exception=0, queues active=3 queued=9 in_flight=2, busiest a\.test=2 b\.test=1\n/);
  assert.match(text, /fetch: done in 0\.0 s success=40\n/);
  assert.doesNotMatch(text, /\x1b/, 'no terminal escapes off a TTY');
});

test('nutch fetch: first SIGINT stops politely (exit 130), the fetched pages are kept', async (t) => {
  const { spawn } = await import('node:child_process');
  const { projectRoot } = await import('../helpers/temp-dir.js');
  const web = await startTestWeb({ hosts: 1, pagesPerHost: 200, linksPerPage: 1, latencyMs: 5 });
  t.after(() => web.close());
  const ctx = fetchContext(t);
  const seg = await generateSegment(ctx, [web.allUrls()]);
  const cwd = tempDir(t);
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(projectRoot, 'sdk', 'cli', 'main.ts'), 'fetch',
    '-D', 'http.agent.name=CliBot', '-D', 'fetcher.server.delay=0.01', '-D', 'plugin.includes=protocol-http', '-D', 'storage.batch.size=5', seg, ...storageDefine(ctx).flatMap((d) => ['-D', d])],
  { cwd, env: { PATH: process.env.PATH, NUTCH_CONF_DIR: cwd }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => {
    const timer = setInterval(() => {
      if ((web.requestLog.get(web.hosts[0]!)?.length ?? 0) >= 10) {
        clearInterval(timer);
        child.kill('SIGINT');
      }
    }, 10);
    child.on('close', (c) => {
      clearInterval(timer);
      resolve(c);
    });
  });
  assert.equal(code, 130, stderr);
  const stored = await readPart(ctx, seg, 'crawl_fetch');
  assert.ok(stored.length >= 9 && stored.length < 200, `stored ${stored.length}`);
  const requested = web.requestLog.get(web.hosts[0]!)!.filter((r) => r.path !== '/robots.txt').length;
  assert.equal(requested, stored.length, 'every request made was committed; none started after the stop');
});
