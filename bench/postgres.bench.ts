/**
 * PostgreSQL bench (scale-out issue): the storage benches run on a throwaway PostgreSQL 15 cluster
 * (tests/helpers/postgres-server.ts) through `storage.url`, each in a child process so its peak RSS
 * is its own:
 *   - crawldb.bench: inject 1,000,000 URLs (target >= 30,000 URLs/s), generate -topN 50,000
 *     (target <= 10 s), peak RSS (target <= 500 MB);
 *   - updatedb.bench: updatedb of 1,000,000 outlinks (target <= 20 s), then invertlinks and dedup;
 *   - crawl.bench on SQLite and on PostgreSQL, one after the other (target: PostgreSQL's pages/s within
 *     1.5x of SQLite's, i.e. at least 2/3 of it);
 *   - workers.bench on PostgreSQL: 1, 2 and 4 fetch processes on one segment (target: 4 >= 3.2x one).
 * The cluster gets a real server's memory (shared_buffers 256 MB) but, like the tests' clusters, no
 * fsync: figures are the engine's work, not this VM's disk.
 * Env: BENCH_PG_PARTS (comma list of crawldb, updatedb, crawl, workers; default all), BENCH_URLS (1,000,000),
 * BENCH_PAGES_PER_HOST (crawl: 200).
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { startPostgres } from '../tests/helpers/postgres-server.js';

const parts = (process.env.BENCH_PG_PARTS ?? 'crawldb,updatedb,crawl,workers').split(',').map((s) => s.trim());
const urls = process.env.BENCH_URLS ?? '1000000';
const load = () => `load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`;

const server = await startPostgres({
  settings: { shared_buffers: '256MB', work_mem: '32MB', maintenance_work_mem: '128MB', max_wal_size: '4GB', checkpoint_timeout: '30min' },
});
if (!server) {
  console.log('PostgreSQL (initdb, postgres) is not installed: PostgreSQL bench skipped');
  process.exit(0);
}
const serverPid = String(server.pid);

/** Runs a bench file in its own process with extra env; resolves with its stdout (also echoed). */
function runBench(file: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(file, import.meta.url))], {
      env: { ...process.env, BENCH_PG_PID: serverPid, ...env }, stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; process.stdout.write(d); });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${file} exited ${code}`))));
  });
}

let schema = 0;
const storageUrl = () => `${server.url}?schema=bench_${++schema}`;
const summary: string[] = [];
try {
  if (parts.includes('crawldb')) {
    console.log(`\n--- crawldb.bench on PostgreSQL (${load()}) ---`);
    const out = await runBench('./crawldb.bench.ts', {
      BENCH_URLS: urls, BENCH_HOSTS: String(Math.max(1, Math.round(Number(urls) / 100))), BENCH_TOPN: '50000',
      BENCH_STORAGE_URL: storageUrl(),
    });
    const inject = /^inject\s+([\d.]+) s wall.*?([\d,]+) records\/s wall/m.exec(out);
    const generate = /^generate -topN \S+\s+([\d.]+) s wall/m.exec(out);
    const rss = /^peak RSS (\d+) MB/m.exec(out);
    summary.push(`inject ${urls} URLs: ${inject?.[2]} URLs/s (target >= 30,000)`);
    summary.push(`generate -topN 50,000: ${generate?.[1]} s (target <= 10 s)`);
    summary.push(`crawldb bench peak RSS: ${rss?.[1]} MB (target <= 500 MB)`);
  }
  if (parts.includes('updatedb')) {
    console.log(`\n--- updatedb.bench on PostgreSQL (${load()}) ---`);
    const out = await runBench('./updatedb.bench.ts', { BENCH_PAGES: '20000', BENCH_LINKS: '50', BENCH_STORAGE_URL: storageUrl() });
    const updatedb = /^updatedb\s+([\d.]+) s wall/m.exec(out);
    const rss = /^peak RSS (\d+) MB/m.exec(out);
    summary.push(`updatedb of 1,000,000 outlinks: ${updatedb?.[1]} s (target <= 20 s)`);
    summary.push(`updatedb bench peak RSS: ${rss?.[1]} MB (target <= 500 MB)`);
  }
  if (parts.includes('crawl')) {
    const env = { BENCH_PEERS: '0', BENCH_PAGES_PER_HOST: process.env.BENCH_PAGES_PER_HOST ?? '200' };
    console.log(`\n--- crawl.bench on SQLite (${load()}) ---`);
    const sqlite = await runBench('./crawl.bench.ts', env);
    console.log(`\n--- crawl.bench on PostgreSQL (${load()}) ---`);
    const pg = await runBench('./crawl.bench.ts', { ...env, BENCH_STORAGE_URL: storageUrl() });
    const rate = (out: string) => Number(/= (\d+) pages\/s/.exec(out)?.[1] ?? NaN);
    const ratio = rate(sqlite) / rate(pg);
    summary.push(`crawl: SQLite ${rate(sqlite)} pages/s, PostgreSQL ${rate(pg)} pages/s: SQLite/PostgreSQL ${ratio.toFixed(2)}x (target <= 1.5x)`);
  }
  if (parts.includes('workers')) {
    console.log(`\n--- workers.bench on PostgreSQL (${load()}) ---`);
    const out = await runBench('./workers.bench.ts', { BENCH_STORAGE_URL: storageUrl() });
    const rate = (n: number) => /^(\d+) worker process\(es\): ([\d.]+) pages\/s/m.exec(out.split('\n').filter((l) => l.startsWith(`${n} worker`)).join('\n'))?.[2];
    const ratio = /^\s+4 -> ([\d.]+)x/m.exec(out)?.[1];
    summary.push(`workers: 1/2/4 processes ${rate(1)}/${rate(2)}/${rate(4)} pages/s, 4 = ${ratio}x one (target >= 3.2x)`);
  }
} finally {
  await server.stop();
}
console.log('\nPostgreSQL summary:');
for (const s of summary) console.log(`  ${s}`);
console.log(`  ${load()}`);
