/**
 * End-to-end bench (issue 8, DESIGN §8): a whole crawl — generate, fetch, parse, updatedb, invertlinks,
 * dedup, index, every round — of the test web running in its own child process. Reports pages/s, CPU s
 * per 1,000 pages, peak RSS and time per stage; when Crawlee 3 is installed in bench/peers
 * (`npm run bench:peers`), runs its CheerioCrawler on the same test web in the same bench for the ratio.
 * Env: BENCH_HOSTS (100), BENCH_PAGES_PER_HOST (200), BENCH_PER_QUEUE (2 connections per host).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestWebProcess } from './lib/test-web-process.js';
import { createNutch } from '../sdk/create-nutch.js';
import { createConsoleLogger } from '../core/log.js';

const hosts = Number(process.env.BENCH_HOSTS ?? 100);
const pagesPerHost = Number(process.env.BENCH_PAGES_PER_HOST ?? 200);
const perQueue = Number(process.env.BENCH_PER_QUEUE ?? 2);
const web = await startTestWebProcess({ hosts, pagesPerHost, linksPerPage: 20, pageBytes: 30_000, robots: false, seed: 42 });
const total = hosts * pagesPerHost;
const dir = mkdtempSync(join(tmpdir(), 'nutch-crawl-bench-'));
console.log(`test web: ${hosts} hosts x ${pagesPerHost} pages = ${total} pages, ${perQueue} connections per host, delay 0`);

let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);
const nutch = await createNutch({
  crawlDir: join(dir, 'crawl'),
  cwd: dir,
  logger: createConsoleLogger('error'),
  config: {
    'http.agent.name': 'nutch-ts-bench',
    'fetcher.threads.fetch': hosts * perQueue,
    'fetcher.threads.per.queue': perQueue,
    'fetcher.server.delay': 0,
    'fetcher.server.min.delay': 0,
    'fetcher.parse': true,
    'db.ignore.external.links': false,
  },
});
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let summary: Record<string, number> = {};
try {
  summary = await nutch.crawl({ seeds: web.seeds, rounds: -1, topN: 50_000, index: true }).result;
} finally {
  await nutch.close();
  clearInterval(sampler);
}
const secs = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const fetched = summary['fetch.success'] ?? 0;
const ours = fetched / secs;
console.log(`nutch-ts crawl: ${fetched} pages in ${secs.toFixed(1)} s over ${summary.rounds} rounds = ${ours.toFixed(0)} pages/s`);
console.log(`  CPU ${(((cpu.user + cpu.system) / 1e6) / (fetched / 1000)).toFixed(2)} s per 1,000 pages (all threads), peak RSS ${(peakRss / 1048576).toFixed(0)} MB (target <= 400 MB)`);
console.log(`  per stage: ${Object.entries(summary).filter(([k]) => k.startsWith('time.')).map(([k, v]) => `${k.slice(5, -3)}=${(v / 1000).toFixed(1)}s`).join(' ')}`);
if (fetched < total * 0.9) console.log(`  note: fetched ${fetched} of ${total} pages`);

const peerDir = fileURLToPath(new URL('./peers/', import.meta.url));
if (existsSync(join(peerDir, 'node_modules', '@crawlee', 'cheerio'))) {
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
