/**
 * CrawlDb bench (issue 4): inject N seed URLs (default 100,000 over N/100 hosts, through the default
 * normalise/filter chains), generate -topN T (default 20,000) with generate.max.count 100, then
 * readdb -stats. Reports records/s, peak RSS and the longest event-loop block during each stage
 * (perf_hooks.monitorEventLoopDelay; the budget is 50 ms).
 * Env: BENCH_URLS, BENCH_TOPN, BENCH_HOSTS, BENCH_PROFILE (inject, generate or readdb: a CPU profile of that stage, <stage>.cpuprofile), BENCH_STORAGE_URL (a postgresql:// URL: run on PostgreSQL). BENCH_PG_PID (that server's postmaster, local: its CPU per stage is reported). The issue's full size: BENCH_URLS=1000000 BENCH_HOSTS=10000 BENCH_TOPN=50000.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createContext } from '../core/crawl/context.js';
import { createConsoleLogger } from '../core/log.js';
import { inject } from '../core/crawl/inject/inject.js';
import { generateSegments } from '../core/crawl/generate/generate.js';
import { readdb } from '../core/crawl/readdb/readdb.js';
import { serverCpuSeconds } from './lib/server-cpu.js';
import { startStageProfile, stopStageProfile } from './lib/stage-profile.js';

const URLS = Number(process.env.BENCH_URLS ?? 100_000);
const HOSTS = Number(process.env.BENCH_HOSTS ?? Math.max(1, Math.round(URLS / 100)));
const TOPN = Number(process.env.BENCH_TOPN ?? 20_000);
const LOOP_BUDGET_MS = 50;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nutch-bench-crawldb-'));
const seeds = path.join(dir, 'urls', 'seed.txt');
fs.mkdirSync(path.dirname(seeds), { recursive: true });
// written in blocks so the seed file never sits in memory whole
const fd = fs.openSync(seeds, 'w');
for (let i = 0; i < URLS; ) {
  const block: string[] = [];
  for (const end = Math.min(URLS, i + 10_000); i < end; i++) block.push(`http://www.host${i % HOSTS}.example.com/section${i % 13}/page-${i}.html\n`);
  fs.writeSync(fd, block.join(''));
}
fs.closeSync(fd);

const ctx = createContext({
  includeBuiltins: true, cwd: dir, root: dir, env: { NUTCH_CONF_DIR: dir },
  logger: createConsoleLogger('warn'),
  defines: { 'generate.max.count': '100', ...(process.env.BENCH_STORAGE_URL ? { 'storage.url': process.env.BENCH_STORAGE_URL } : {}), ...JSON.parse(process.env.BENCH_DEFINES ?? '{}') },
});
const crawlDb = path.join(dir, 'crawl', 'crawldb');
const rows: string[] = [];
let loopOk = true;

/**
 * CPU time of the MAIN thread between two consecutive turns of the event loop — the synchronous
 * block the loop could not escape. On Linux it is read from /proc/self/task/<pid>/schedstat
 * (nanoseconds on CPU, this thread only, so neither the OS scheduling us out on a loaded machine
 * nor the checkpoint worker's CPU counts); elsewhere process.cpuUsage() (all threads) is used.
 * Sampled on a 1 ms timer, not setImmediate: an immediate keeps the loop from ever sleeping, so while a
 * stage waits on a database server (PostgreSQL) the probe itself would spin a core; a turn measured
 * this way may include up to 1 ms of other work.
 */
const schedstat = `/proc/self/task/${process.pid}/schedstat`;
const mainThreadCpuMs: () => number = fs.existsSync(schedstat)
  ? () => Number(fs.readFileSync(schedstat, 'latin1').split(' ')[0]) / 1e6
  : () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };

function cpuPerTurn(): { stop(): number; peakRss(): number } {
  let prev = mainThreadCpuMs();
  let max = 0;
  let rss = 0;
  let turns = 0;
  let timer: NodeJS.Timeout;
  const tick = () => {
    if (turns++ % 16 === 0) rss = Math.max(rss, process.memoryUsage.rss());
    const now = mainThreadCpuMs();
    max = Math.max(max, now - prev);
    prev = now;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  return { stop: () => { clearTimeout(timer); return max; }, peakRss: () => rss };
}

// BENCH_PROFILE=<stage> (inject, generate, readdb): a CPU profile of that stage alone (bench/lib/stage-profile.ts).
async function stage<T>(name: string, records: number, fn: () => Promise<T>): Promise<T> {
  const profileName = name.split(' ')[0]!;
  const profile = await startStageProfile(profileName);
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const cpu = cpuPerTurn();
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const server0 = serverCpuSeconds();
  const result = await fn();
  const server1 = serverCpuSeconds();
  await stopStageProfile(profile, profileName);
  const ms = performance.now() - t0;
  const cpuMs = (process.cpuUsage().user - cpu0.user + process.cpuUsage().system - cpu0.system) / 1000;
  const maxCpuTurn = cpu.stop();
  h.disable();
  const maxMs = h.max / 1e6;
  if (maxCpuTurn > LOOP_BUDGET_MS) loopOk = false;
  rows.push(`${name.padEnd(24)} ${(ms / 1000).toFixed(2).padStart(6)} s wall (${(cpuMs / 1000).toFixed(2)} s CPU)  ${Math.round(records / (ms / 1000)).toLocaleString('en').padStart(8)} records/s wall, ${Math.round(records / (cpuMs / 1000)).toLocaleString('en')}/CPU-s  ${server0 !== null && server1 !== null ? `server ${(server1 - server0).toFixed(2)} CPU-s  ` : ''}loop: longest turn ${maxCpuTurn.toFixed(1)} ms main-thread CPU, max delay ${maxMs.toFixed(1)} ms wall (p99 ${(h.percentile(99) / 1e6).toFixed(1)})  RSS ${(cpu.peakRss() / 2 ** 20).toFixed(0)} MB`);
  return result;
}

try {
  console.log(`CrawlDb bench (${ctx.storage.name}): ${URLS.toLocaleString('en')} URLs over ${HOSTS.toLocaleString('en')} hosts, topN ${TOPN.toLocaleString('en')}, generate.max.count 100`);
  console.log(`URLFilter chain: ${(await ctx.extensions.urlFilters()).chain.join(', ') || '(none)'}; inject normalizers: ${(await ctx.extensions.urlNormalizers('inject')).chain.join(', ') || '(none)'}`);
  const injected = await stage('inject', URLS, () => inject(ctx, { crawlDb, urlDir: path.dirname(seeds) }));
  const gen = await stage(`generate -topN ${TOPN}`, URLS, () => generateSegments(ctx, { crawlDb, segmentsDir: path.join(dir, 'crawl', 'segments'), topN: TOPN }));
  await stage('readdb -stats', URLS, () => readdb(ctx, { crawlDb, stats: true, print: () => {} }));
  for (const r of rows) console.log(r);
  console.log(`injected ${injected.urls_injected}, filtered ${injected.urls_filtered}; generate selected ${gen.counters.selected} into ${gen.segments.length} segment(s)`);
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (issue budget 500 MB)`);
  console.log(`inject target >= 30,000 URLs/s; generate target <= 5 s for -topN 50,000 on 1,000,000 URLs`);
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores (wall-clock loop delay includes time not scheduled)`);
  console.log(`event-loop check (no turn > ${LOOP_BUDGET_MS} ms of main-thread CPU${fs.existsSync(schedstat) ? '' : ', process CPU here'}): ${loopOk ? 'PASS' : 'FAIL'}`);
} finally {
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
