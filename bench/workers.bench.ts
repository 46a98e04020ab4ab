/**
 * Fetch-worker scaling bench (scale-out issue): 100 hosts of the test web (its own child process) at
 * 200 ms latency, 1 connection per host; one segment of 20 partitions (whole hosts) fetched by 1, 2
 * and 4 `nutch fetch` processes started together, each with 10 fetch tasks (-threads 10). With 10
 * tasks a process fetches at most 10 / 0.2 s = 50 pages/s, so pages/s should grow with the processes
 * (target: 4 processes >= 3.2x one). Reports pages/s per run and the ratio to one process.
 * The processes run the built CLI (dist/, built first), as operators run it. Per run it also prints
 * when each process started fetching (after spawn) and when each exited (after the first request):
 * start-up and a straggler at the end are what keep the ratio below the number of processes.
 * Env: BENCH_PAGES_PER_HOST (default 20), BENCH_STORAGE_URL (a postgresql:// URL: run on PostgreSQL).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startTestWebProcess } from './lib/test-web-process.js';
import { SqliteStorageEngine } from '../core/storage/sqlite/sqlite-engine.js';
import { PostgresStorageEngine } from '../core/storage/postgres/postgres-engine.js';
import { createCrawlDatum, CrawlStatus } from '../core/model/crawl-datum.js';

const PAGES_PER_HOST = Number(process.env.BENCH_PAGES_PER_HOST ?? 20);
const HOSTS = 100;
const PARTITIONS = 20;
// the built CLI, as operators run it: under tsx each process would first compile the CLI, seconds of start-up on a loaded machine
const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, 'bench', 'lib', 'nutch-measured.mjs'); // dist/sdk/cli/main.js, reporting its CPU time at exit
const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
if (build.status !== 0) throw new Error(`npm run build failed:\n${build.stdout}\n${build.stderr}`);

async function run(workers: number, web: Awaited<ReturnType<typeof startTestWebProcess>>): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'nutch-bench-workers-'));
  try {
    writeFileSync(join(dir, 'nutch-site.json'), JSON.stringify({
      'http.agent.name': 'bench', 'fetcher.server.delay': 0, 'fetcher.threads.per.queue': 1, 'fetcher.partition.poll': 200,
      'plugin.includes': 'protocol-http|urlnormalizer-pass', ...(process.env.BENCH_STORAGE_URL ? { 'storage.url': process.env.BENCH_STORAGE_URL } : {}),
    }));
    // the segment is written by the engine the fetch processes use (same working directory: same store names)
    const engine = process.env.BENCH_STORAGE_URL
      ? new PostgresStorageEngine({ url: process.env.BENCH_STORAGE_URL, cwd: dir, batchSize: 1000 })
      : new SqliteStorageEngine();
    const seg = await engine.createSegment(join(dir, 'crawl', 'segments'));
    const urls = web.allUrls();
    for (let p = 0; p < PARTITIONS; p++) {
      const w = await seg.openWriter('crawl_generate', p, { totalPartitions: PARTITIONS });
      const mine = urls.filter((u) => web.hosts.indexOf(new URL(u).host) % PARTITIONS === p);
      await w.append(mine.map((url) => ({ url, value: createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED }) })));
      await w.finish();
      await w.close();
    }
    await seg.close();
    await engine.close();
    // the clock starts at the first request served: the processes' start-up (tsx compiling the CLI) is not fetching
    const before = (await web.stats()).requests;
    let t0 = 0;
    const watch = setInterval(() => void web.stats().then((s) => { if (!t0 && s.requests > before) t0 = performance.now(); }), 50);
    const spawned = performance.now();
    const started: number[] = [];
    const ended: number[] = [];
    let cpuSeconds = 0;
    const exits = Array.from({ length: workers }, (_, i) => new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [cli, 'fetch', seg.path, '-threads', '10'], {
        cwd: dir, env: { ...process.env, NUTCH_CONF_DIR: dir, NUTCH_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'ignore', 'pipe'],
      });
      let tail = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => {
        if (started[i] === undefined && d.includes('fetch: started')) started[i] = performance.now();
        tail = (tail + d).slice(-4000);
      });
      child.on('close', (code) => {
        ended[i] = performance.now();
        const usage = /RESOURCE-USAGE (\{.*\})/.exec(tail)?.[1];
        if (usage) cpuSeconds += (JSON.parse(usage) as { cpuUs: number }).cpuUs / 1e6;
        if (code !== 0) process.stderr.write(tail);
        resolve(code);
      });
    }));
    const codes = await Promise.all(exits);
    clearInterval(watch);
    if (codes.some((c) => c !== 0)) throw new Error(`a fetch process failed: exit codes ${codes.join(', ')}`);
    const rel = (ts: (number | undefined)[], from: number) => ts.map((x) => (x === undefined ? '?' : ((x - from) / 1000).toFixed(1))).join(', ');
    const wall = (Math.max(...ended) - t0) / 1000;
    console.log(`  ${workers} process(es): fetch started ${rel(started, spawned)} s after spawn; first request ${((t0 - spawned) / 1000).toFixed(1)} s after spawn; exits ${rel(ended, t0)} s after it; CPU ${cpuSeconds.toFixed(1)} s over all processes (${(cpuSeconds / wall).toFixed(2)} cores busy on average, start-up included)`);
    const seconds = (performance.now() - t0) / 1000;
    return urls.length / seconds;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const web = await startTestWebProcess({ hosts: HOSTS, pagesPerHost: PAGES_PER_HOST, linksPerPage: 5, latencyMs: 200, robots: false, pageBytes: 10_000 });
try {
  const results: [number, number][] = [];
  for (const n of [1, 2, 4]) {
    const rate = await run(n, web);
    results.push([n, rate]);
    console.log(`${n} worker process(es): ${rate.toFixed(1)} pages/s (${HOSTS * PAGES_PER_HOST} pages, from the first request to the last process's exit)`);
  }
  const one = results[0]![1];
  for (const [n, rate] of results) console.log(`  ${n} -> ${(rate / one).toFixed(2)}x one process`);
  console.log(`target: 4 processes >= 3.2x one: ${results[2]![1] / one >= 3.2 ? 'met' : 'NOT met'}`);
} finally {
  await web.close();
}
