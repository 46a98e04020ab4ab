/**
 * updatedb bench (issue 4): a segment of N fetched pages (default 20,000) with L outlinks each
 * (default 50: 1,000,000 outlinks) merged into a CrawlDb holding the pages, then invertlinks and
 * dedup on the result. Reports outlinks/s merged (floor 100,000/s), time against the DESIGN budget
 * (generate + updatedb + invertlinks + dedup <= 12 s for 20,000 pages), peak RSS, and the longest
 * event-loop turn. The segment is written through the Segment writer first, in a child process
 * (not timed, and not counted in the stages' peak RSS).
 * Env: BENCH_PAGES, BENCH_LINKS, BENCH_HOSTS, BENCH_STORAGE_URL (a postgresql:// URL: run on PostgreSQL). BENCH_PG_PID (that server's postmaster, local: its CPU per stage is reported).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createContext } from '../core/crawl/context.js';
import { createConsoleLogger } from '../core/log.js';
import { CrawlStatus, createCrawlDatum, type CrawlDatum } from '../core/model/crawl-datum.js';
import { createParseData, type Outlink, type ParseData } from '../core/model/parse.js';
import type { Keyed } from '../core/storage/interfaces.js';
import { updatedb } from '../core/crawl/updatedb/updatedb.js';
import { invertlinks } from '../core/crawl/invertlinks/invertlinks.js';
import { dedup } from '../core/crawl/dedup/dedup.js';
import { serverCpuSeconds } from './lib/server-cpu.js';
import { startStageProfile, stopStageProfile } from './lib/stage-profile.js';

const PAGES = Number(process.env.BENCH_PAGES ?? 20_000);
const LINKS = Number(process.env.BENCH_LINKS ?? 50);
const HOSTS = Number(process.env.BENCH_HOSTS ?? 100);
const LOOP_BUDGET_MS = 50;
const T = Date.now() - 3600_000;

const buildOnly = process.argv[2] === 'build';
const dir = buildOnly ? process.argv[3]! : fs.mkdtempSync(path.join(os.tmpdir(), 'nutch-bench-updatedb-'));
const ctx = createContext({
  includeBuiltins: true, cwd: dir, root: dir, env: { NUTCH_CONF_DIR: dir }, logger: createConsoleLogger('warn'),
  defines: process.env.BENCH_STORAGE_URL ? { 'storage.url': process.env.BENCH_STORAGE_URL } : {},
});
const crawlDb = path.join(dir, 'crawl', 'crawldb');
const linkDb = path.join(dir, 'crawl', 'linkdb');
const pageUrl = (i: number) => `http://www.host${i % HOSTS}.example.com/section${i % 13}/page-${i}.html`;

/** CPU time spent between two turns of the event loop, sampled on a 1 ms timer (see crawldb.bench.ts). */
function cpuPerTurn(): { stop(): number } {
  let prev = process.cpuUsage();
  let max = 0;
  let timer: NodeJS.Timeout;
  const tick = () => {
    const now = process.cpuUsage();
    max = Math.max(max, (now.user + now.system - prev.user - prev.system) / 1000);
    prev = now;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  return { stop: () => { clearTimeout(timer); return max; } };
}

async function build(): Promise<void> {
  const db = await ctx.storage.openCrawlDb(crawlDb);
  const up = await db.beginUpdate();
  for (let i = 0; i < PAGES; i += 5000) {
    const batch: Keyed<CrawlDatum>[] = [];
    for (let k = i; k < Math.min(PAGES, i + 5000); k++) batch.push({ url: pageUrl(k), value: createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED, fetchTime: T - 1000, score: 1 }) });
    await up.put(batch);
  }
  await up.commit();
  await db.close();

  const seg = await ctx.storage.createSegment(path.join(dir, 'crawl', 'segments'));
  const fetchW = await seg.openWriter('crawl_fetch', 0, { totalPartitions: 1 });
  const parseW = await seg.openWriter('crawl_parse', 0, { totalPartitions: 1 });
  const dataW = await seg.openWriter('parse_data', 0, { totalPartitions: 1 });
  for (let i = 0; i < PAGES; i += 500) {
    const fetch: Keyed<CrawlDatum>[] = [];
    const parse: Keyed<CrawlDatum>[] = [];
    const data: Keyed<ParseData>[] = [];
    for (let p = i; p < Math.min(PAGES, i + 500); p++) {
      const url = pageUrl(p);
      fetch.push({ url, value: createCrawlDatum({ status: CrawlStatus.STATUS_FETCH_SUCCESS, fetchTime: T, score: 1 }) });
      // every 10th page shares its signature with the next one, so dedup has work
      parse.push({ url, value: createCrawlDatum({ status: CrawlStatus.STATUS_SIGNATURE, signature: new Uint8Array([(p - (p % 2 === 1 && p % 10 === 1 ? 1 : 0)) & 255, p >> 8, p >> 16, 7]), score: 0, fetchInterval: 0 }) });
      const outlinks: Outlink[] = [];
      for (let j = 0; j < LINKS; j++) {
        // half the links point at known pages, half at new URLs (shared by several pages)
        const to = j % 2 === 0 ? pageUrl((p * 31 + j * 7) % PAGES) : `http://www.host${(p + j) % HOSTS}.example.com/new/${(p * LINKS + j) % (PAGES * 10)}`;
        outlinks.push({ toUrl: to, anchor: `link ${j}` });
        parse.push({ url: to, value: createCrawlDatum({ status: CrawlStatus.STATUS_LINKED, fetchTime: T, score: 1 / LINKS }) });
      }
      data.push({ url, value: createParseData({ outlinks }) });
    }
    await fetchW.append(fetch);
    await parseW.append(parse);
    await dataW.append(data);
  }
  for (const w of [fetchW, parseW, dataW]) { await w.finish(); await w.close(); }
  await seg.close();
}

if (buildOnly) {
  await build();
  await ctx.close();
  process.exit(0);
}

// BENCH_PROFILE=<stage>: a CPU profile of that stage alone (bench/lib/stage-profile.ts).

const rows: string[] = [];
let loopOk = true;
let budgetMs = 0;
async function stage<T>(name: string, records: number, unit: string, fn: () => Promise<T>): Promise<T> {
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const cpu = cpuPerTurn();
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const server0 = serverCpuSeconds();
  const session = await startStageProfile(name);
  const result = await fn();
  await stopStageProfile(session, name);
  const ms = performance.now() - t0;
  const server1 = serverCpuSeconds();
  const c1 = process.cpuUsage(c0);
  const cpuMs = (c1.user + c1.system) / 1000;
  budgetMs += ms;
  const maxCpuTurn = cpu.stop();
  h.disable();
  if (maxCpuTurn > LOOP_BUDGET_MS) loopOk = false;
  rows.push(`${name.padEnd(12)} ${(ms / 1000).toFixed(2).padStart(6)} s wall (${(cpuMs / 1000).toFixed(2)} s CPU)  ${Math.round(records / (ms / 1000)).toLocaleString('en').padStart(9)} ${unit}/s wall, ${Math.round(records / (cpuMs / 1000)).toLocaleString('en')}/CPU-s  ${server0 !== null && server1 !== null ? `server ${(server1 - server0).toFixed(2)} CPU-s  ` : ''}loop: longest turn ${maxCpuTurn.toFixed(1)} ms CPU, max delay ${(h.max / 1e6).toFixed(1)} ms wall`);
  return result;
}

try {
  console.log(`updatedb bench (${ctx.storage.name}): ${PAGES.toLocaleString('en')} pages x ${LINKS} outlinks = ${(PAGES * LINKS).toLocaleString('en')} outlinks over ${HOSTS} hosts`);
  const b0 = performance.now();
  const child = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), 'build', dir], { stdio: 'inherit', env: process.env });
  if (child.status !== 0) throw new Error(`segment build failed (exit ${child.status})`);
  const [segment] = await ctx.storage.listSegments(path.join(dir, 'crawl', 'segments'));
  if (!segment) throw new Error('no segment built');
  console.log(`(segment + CrawlDb written in ${((performance.now() - b0) / 1000).toFixed(1)} s, not timed)`);
  const u = await stage('updatedb', PAGES * LINKS, 'outlinks', () => updatedb(ctx, { crawlDb, segments: [segment] }));
  const i = await stage('invertlinks', PAGES * LINKS, 'links', () => invertlinks(ctx, { linkDb, segments: [segment], noNormalize: true, noFilter: true }));
  const d = await stage('dedup', PAGES, 'pages', () => dedup(ctx, { crawlDb }));
  for (const r of rows) console.log(r);
  console.log(`updatedb: db_fetched ${u.db_fetched}, db_unfetched ${u.db_unfetched} (${u.urls_added} added); invertlinks: ${i.linkdb_urls_updated} URLs with inlinks; dedup: ${d.documents_marked_as_duplicate} duplicates`);
  console.log('floor: updatedb >= 100,000 outlinks/s merged (see the updatedb row; on a loaded machine the CPU-s figure is the fair one)');
  console.log(`budget: updatedb + invertlinks + dedup = ${(budgetMs / 1000).toFixed(1)} s (DESIGN: generate + updatedb + invertlinks + dedup <= 12 s for 20,000 pages, all rounds)`);
  console.log(`peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (issue budget 500 MB)`);
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
  console.log(`event-loop check (no turn > ${LOOP_BUDGET_MS} ms of CPU): ${loopOk ? 'PASS' : 'FAIL'}`);
} finally {
  await ctx.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
