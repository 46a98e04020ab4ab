/**
 * End-to-end bench (issue 8, DESIGN §8): `nutch crawl -i` — generate, fetch, parse, updatedb,
 * invertlinks, dedup, index, every round until nothing is left — of the test web, run as operators run
 * it: the built CLI in its own process (bench/lib/nutch-measured.mjs), the test web in another. Two
 * cases, each on its own test web (100 hosts × 200 pages of about 30 KB, 2 connections per host):
 *   - `inline`: the bench's tuned settings: fetch with inline parse (`fetcher.parse=true`), 20 links per
 *     page, no robots.txt (404), no delay;
 *   - `defaults`: the settings a user runs (issue 16): Nutch's defaults — `fetcher.parse=false`, so a
 *     separate parse stage — on pages of 40 links, robots.txt on every host (`/private/` disallowed).
 * Each reports pages/s, CPU s per 1,000 pages (all threads of the crawler's process), peak RSS (VmHWM)
 * and time per stage, with the load average. When Crawlee 3 is installed in bench/peers
 * (`npm run bench:peers`), runs its CheerioCrawler on the same test web and concurrency after each case,
 * for the ratio. Builds dist/ first (the CLI runs from the build). Env: BENCH_CASES (inline,defaults),
 * BENCH_HOSTS (100), BENCH_PAGES_PER_HOST (200), BENCH_PER_QUEUE (2 connections per host),
 * BENCH_DEFINES (more `-D k=v`, space-separated, both cases), BENCH_PEERS=0 (skip Crawlee),
 * BENCH_STORAGE_URL (a postgresql:// URL: crawl on PostgreSQL).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestWebProcess } from './lib/test-web-process.js';
import { runChild } from './lib/run-child.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const hosts = Number(process.env.BENCH_HOSTS ?? 100);
const pagesPerHost = Number(process.env.BENCH_PAGES_PER_HOST ?? 200);
const perQueue = Number(process.env.BENCH_PER_QUEUE ?? 2);
const total = hosts * pagesPerHost;

interface Case {
  name: string;
  describe: string;
  linksPerPage: number;
  robots: boolean;
  defines: string[];
}

const cases: Case[] = [
  { name: 'inline', describe: 'fetch with inline parse (fetcher.parse=true), 20 links per page, no robots.txt', linksPerPage: 20, robots: false, defines: ['fetcher.server.delay=0', 'fetcher.server.min.delay=0', 'fetcher.parse=true', 'db.ignore.external.links=false'] },
  // Nutch's defaults but the agent name and the connections per host (with more than one, Nutch waits fetcher.server.min.delay, 0)
  { name: 'defaults', describe: "Nutch's defaults: fetcher.parse=false (a separate parse stage), 40 links per page, robots.txt on", linksPerPage: 40, robots: true, defines: [] },
];
const selected = (process.env.BENCH_CASES ?? 'inline,defaults').split(',').map((s) => s.trim());

const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);

const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

for (const c of cases.filter((x) => selected.includes(x.name))) {
  const web = await startTestWebProcess({ hosts, pagesPerHost, linksPerPage: c.linksPerPage, pageBytes: 30_000, robots: c.robots, seed: 42 });
  const dir = mkdtempSync(join(tmpdir(), 'nutch-crawl-bench-'));
  writeFileSync(join(dir, 'seeds.txt'), web.seeds.join('\n') + '\n');
  console.log(`\ncase ${c.name}: ${c.describe}`);
  console.log(`storage: ${process.env.BENCH_STORAGE_URL ? 'PostgreSQL' : 'SQLite'}; test web: ${hosts} hosts x ${pagesPerHost} pages = ${total} pages, ${perQueue} connections per host; load average ${load()}`);

  const argv = [
    'crawl', '-i', '-s', 'seeds.txt',
    '--num-threads', String(hosts * perQueue), '--size-fetchlist', '50000',
    '-D', 'http.agent.name=nutch-ts-bench',
    '-D', `fetcher.threads.per.queue=${perQueue}`,
    ...c.defines.flatMap((d) => ['-D', d]),
    ...(process.env.BENCH_DEFINES ?? '').split(/\s+/).filter(Boolean).flatMap((d) => ['-D', d]),
    ...(process.env.BENCH_STORAGE_URL ? ['-D', `storage.url=${process.env.BENCH_STORAGE_URL}`] : []),
    'crawl', '-1',
  ];
  const t0 = performance.now();
  const run = await runChild(process.execPath, [join(root, 'bench', 'lib', 'nutch-measured.mjs'), ...argv], dir);
  const secs = (performance.now() - t0) / 1000;
  if (run.code !== 0) throw new Error(`nutch crawl exited ${run.code}:\n${run.stderr.slice(-3000)}`);
  const usage = JSON.parse(/RESOURCE-USAGE (\{.*\})/.exec(run.stderr)![1]!) as { maxRssKb: number; cpuUs: number };
  const fetched = Number(/^\s+fetch:.*\bsuccess=(\d+)/m.exec(run.stdout)?.[1] ?? 0);
  const rounds = /Crawl finished: (\d+) round/.exec(run.stdout)?.[1];
  const times = /^\s+time:\s+(.*)$/m.exec(run.stdout)?.[1] ?? '';
  const ours = fetched / secs;
  console.log(`nutch-ts crawl (${c.name}): ${fetched} pages in ${secs.toFixed(1)} s over ${rounds} rounds = ${ours.toFixed(0)} pages/s; load average after ${load()}`);
  console.log(`  CPU ${(usage.cpuUs / 1e6 / (fetched / 1000)).toFixed(2)} s per 1,000 pages (all threads), peak RSS ${(usage.maxRssKb / 1024).toFixed(0)} MB (target <= 400 MB)`);
  console.log(`  per stage: ${times.split(' ').map((t) => t.replace(/=(\d+)ms$/, (_, ms: string) => `=${(Number(ms) / 1000).toFixed(1)}s`)).join(' ')}`);
  if (fetched < total * 0.9) console.log(`  note: fetched ${fetched} of ${total} pages`);

  const peerDir = join(root, 'bench', 'peers');
  if (process.env.BENCH_PEERS === '0') {
    console.log('Crawlee skipped (BENCH_PEERS=0)');
  } else if (existsSync(join(peerDir, 'node_modules', '@crawlee', 'cheerio'))) {
    const r = spawnSync(process.execPath, [join(peerDir, 'crawlee-run.mjs'), String(hosts * perQueue), ...web.seeds], { cwd: peerDir, encoding: 'utf8', maxBuffer: 64 << 20 });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    try {
      const peer = JSON.parse(line) as { pages: number; pagesPerSec: number; cpuPer1000: number; peakRssMb: number };
      console.log(`Crawlee CheerioCrawler: ${peer.pages} pages, ${peer.pagesPerSec.toFixed(0)} pages/s, CPU ${peer.cpuPer1000.toFixed(2)} s/1,000 pages, peak RSS ${peer.peakRssMb.toFixed(0)} MB`);
      console.log(`ratio nutch-ts / Crawlee: ${(ours / peer.pagesPerSec).toFixed(2)}x (target >= 3x)`);
    } catch {
      console.log(`Crawlee run failed: ${r.stderr.slice(-500)}`);
    }
  } else {
    console.log('Crawlee not installed (npm run bench:peers): no peer ratio this run');
  }
  await web.close();
  rmSync(dir, { recursive: true, force: true });
}
