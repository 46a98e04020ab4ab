/**
 * Disk full (issue 18), on a real full file system: a small tmpfs mounted for the test (needs root;
 * skipped with the reason otherwise). `nutch fetch` whose segment fills the disk stops with
 * NUTCH_STORAGE_WRITE_FAILED naming the segment and exits (it used to hang, its feeder polling for
 * partitions); what it committed stays, and once there is space the same command resumes without
 * fetching a page twice. updatedb on a full disk stops with the error naming the CrawlDb file and
 * leaves the CrawlDb as it was; after space is freed it runs.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { once } from 'node:events';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runNutch, spawnNutch } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp-dir.js';
import { sqliteOnly } from '../helpers/test-storage.js';
import { fixtureContext } from '../helpers/context.js';

const PAGES = 40;
// ~56 KB of incompressible-looking text per page: 2 MiB holds about half of them
const page = (i: number) => `<html><body><p>page ${i}</p>${Array.from({ length: 3000 }, (_, k) => `<span>${(i * 7919 + k * 104729).toString(36)}</span>`).join('')}</body></html>`;

/** Mounts a tmpfs of `size` at a new directory, or returns why it cannot. */
function mountTmpfs(t: TestContext, size: string): string | { why: string } {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return { why: 'mounting a small tmpfs needs root on Linux' };
  const dir = mkdtempSync(join(tmpdir(), 'nutch-disk-full-'));
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { encoding: 'utf8' });
  // unmounted before it is removed (tempDir's own cleanup would meet a busy mount point)
  t.after(() => {
    if (r.status === 0) spawnSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  if (r.status !== 0) return { why: `mount -t tmpfs failed: ${(r.stderr || r.error?.message || '').trim()}` };
  return dir;
}

function fillDisk(dir: string, leaveBytes: number): string {
  const { bavail, bsize } = statfsSync(dir);
  const file = join(dir, 'filler');
  writeFileSync(file, Buffer.alloc(Math.max(0, bavail * bsize - leaveBytes)));
  return file;
}

test('disk full: fetch stops with NUTCH_STORAGE_WRITE_FAILED and exits, resumes after space is freed; updatedb leaves the CrawlDb as it was', sqliteOnly('the disk of a PostgreSQL server is not the test\'s to fill'), async (t) => {
  const mnt = mountTmpfs(t, '2m');
  if (typeof mnt !== 'string') return t.skip(mnt.why);
  const requests = new Map<string, number>();
  const srv = createServer((req, res) => {
    const m = /^\/p\/(\d+)$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    requests.set(req.url!, (requests.get(req.url!) ?? 0) + 1);
    res.writeHead(200, { 'Content-Type': 'text/html' }).end(page(Number(m[1])));
  });
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  t.after(() => srv.close());
  const base = `http://127.0.0.1:${(srv.address() as { port: number }).port}`;
  const cwd = tempDir(t);
  mkdirSync(join(cwd, 'urls'));
  writeFileSync(join(cwd, 'urls', 'seeds.txt'), Array.from({ length: PAGES }, (_, i) => `${base}/p/${i}`).join('\n') + '\n');
  const crawl = join(mnt, 'crawl');
  const defines = ['-D', 'http.agent.name=x', '-D', 'fetcher.server.delay=0', '-D', 'fetcher.parse=false'];
  const nutch = async (argv: string[], expect = 0) => {
    const r = await runNutch([argv[0]!, ...defines, ...argv.slice(1)], { cwd });
    assert.equal(r.code, expect, `${argv.join(' ')}: ${r.stderr}`);
    return r;
  };
  await nutch(['inject', join(crawl, 'crawldb'), 'urls']);
  await nutch(['generate', join(crawl, 'crawldb'), join(crawl, 'segments')]);
  const segment = join(crawl, 'segments', readdirSync(join(crawl, 'segments'))[0]!);
  const fetched = async () => {
    const ctx = fixtureContext(t);
    const seg = await ctx.storage.openSegment(segment);
    const urls: string[] = [];
    try {
      for await (const r of seg.read('crawl_fetch')) urls.push(r.url);
    } finally {
      await seg.close();
      await ctx.close();
    }
    return urls;
  };

  // a real process: it must stop and exit on its own
  const full = await spawnNutch(['fetch', ...defines, segment], { cwd });
  assert.equal(full.code, 3, full.stderr);
  assert.match(full.stderr, /NUTCH_STORAGE_WRITE_FAILED: Writing segment \d{14} failed while recording http:\/\/127\.0\.0\.1:\d+\/p\/\d+: Cannot write .*nutch-disk-full-\w+\/crawl\/segments\/\d{14}\/\S+: (the disk \(or quota\) is full|an I\/O error, most often a full disk)/);
  assert.doesNotMatch(full.stderr, /\n\s+at /, 'no stack trace');
  const before = await fetched();
  assert.ok(before.length > 0 && before.length < PAGES, `some pages stored before the disk filled up: ${before.length}`);

  assert.equal(spawnSync('mount', ['-o', 'remount,size=32m', mnt]).status, 0, 'grow the tmpfs');
  const resumed = await spawnNutch(['fetch', ...defines, segment], { cwd });
  assert.equal(resumed.code, 0, resumed.stderr);
  const after = await fetched();
  assert.equal(after.length, PAGES, 'every page stored once');
  assert.equal(new Set(after).size, PAGES);
  for (const url of before) assert.ok(after.includes(url), `${url} stored before the disk filled up is still stored`);
  // A stored page is never fetched again; a page fetched but lost with the failed batch is fetched once more.
  for (const url of before) assert.equal(requests.get(new URL(url).pathname), 1, `${url} fetched once`);
  assert.ok([...requests.values()].every((n) => n <= 2));

  const filler = fillDisk(mnt, 16 * 1024);
  const up = await nutch(['updatedb', join(crawl, 'crawldb'), segment], 3);
  assert.match(up.stderr, /NUTCH_STORAGE_WRITE_FAILED: Cannot write .*crawldb\/current\/part-00000: /);
  assert.doesNotMatch(up.stderr, /\n\s+at /, 'no stack trace');
  rmSync(filler);
  const stats = await nutch(['readdb', join(crawl, 'crawldb'), '-stats']);
  assert.match(stats.stdout, new RegExp(`status 1 \\(db_unfetched\\):\\s+${PAGES}\\b`), `CrawlDb as before: ${stats.stdout}`);
  await nutch(['updatedb', join(crawl, 'crawldb'), segment]);
  const updated = await nutch(['readdb', join(crawl, 'crawldb'), '-stats']);
  assert.match(updated.stdout, new RegExp(`status 2 \\(db_fetched\\):\\s+${PAGES}\\b`), updated.stdout);
});
