/**
 * Fetch bench (issue 7, DESIGN §8): the test web runs in its own child process; the fetcher fetches a
 * segment written straight into storage. Two runs:
 *   1. 100 hosts, 1 connection per host, 200 ms latency: ceiling 100 / 0.2 s = 500 pages/s, target >= 400.
 *   2. zero latency, 100 hosts, at most 2 connections per host: pages/s (issue floor 800).
 * Reports pages/s, CPU s per 1,000 pages, peak RSS, event-loop delay p99. Robots.txt is obeyed.
 *   3. the same with inline parse (fetcher.parse, the parse worker pool): issue floor 500 pages/s.
 * Env: BENCH_PAGES_PER_HOST (default 20 for run 1, 50 for run 2).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startTestWebProcess } from './lib/test-web-process.js';
import { createContext } from '../core/crawl/context.js';
import { createConsoleLogger } from '../core/log.js';
import { fetch } from '../core/crawl/fetch/fetcher.js';
import { InlineParse } from '../core/crawl/parse/inline-parse.js';
import { createCrawlDatum, CrawlStatus } from '../core/model/crawl-datum.js';

interface RunSpec {
  name: string;
  hosts: number;
  pagesPerHost: number;
  latencyMs: number;
  perQueue: number;
  threads: number;
  ceiling?: number;
  target: number;
  /** Parse inline through the parse worker pool (fetcher.parse). */
  inlineParse?: boolean;
}

async function run(spec: RunSpec): Promise<void> {
  const web = await startTestWebProcess({ hosts: spec.hosts, pagesPerHost: spec.pagesPerHost, linksPerPage: 20, latencyMs: spec.latencyMs, robots: true, pageBytes: 30_000 });
  const dir = mkdtempSync(join(tmpdir(), 'nutch-bench-fetch-'));
  const ctx = createContext({
    includeBuiltins: true, cwd: dir, root: dir, env: { NUTCH_CONF_DIR: dir },
    logger: createConsoleLogger('warn'),
    defines: {
      // the inline-parse case needs a parser for the test web's HTML: without one every parse failed
      // ("no parser found") and the figure was fetch plus a failing parse
      'http.agent.name': 'BenchBot', 'plugin.includes': spec.inlineParse ? 'protocol-http|parse-html' : 'protocol-http', 'fetcher.server.delay': '0',
      'fetcher.threads.per.queue': String(spec.perQueue), 'fetcher.server.min.delay': '0',
      'fetcher.parse': String(!!spec.inlineParse),
      ...JSON.parse(process.env.BENCH_DEFINES ?? '{}'),
    },
  });
  try {
    const urls = web.allUrls();
    // interleave hosts as generate does (round-robin by host), so every queue has work from the start
    const byHost = web.seeds.map((_, h) => urls.filter((u) => u.startsWith(`http://${web.hosts[h]}/`)));
    const ordered: string[] = [];
    for (let i = 0; i < spec.pagesPerHost; i++) for (const list of byHost) if (list[i]) ordered.push(list[i]!);
    const seg = await ctx.storage.createSegment(join(dir, 'segments'));
    const w = await seg.openWriter('crawl_generate', 0, { totalPartitions: 1 });
    await w.append(ordered.map((url) => ({ url, value: createCrawlDatum({ status: CrawlStatus.STATUS_DB_UNFETCHED }) })));
    await w.finish();
    await w.close();
    await seg.close();

    const inline = spec.inlineParse ? await InlineParse.create(ctx) : null;
    const loop = monitorEventLoopDelay({ resolution: 10 });
    let peakRss = process.memoryUsage.rss();
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage.rss())), 100);
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    loop.enable();
    let firstPage = 0;
    const lastByHost = new Map<string, number>();
    let gapSum = 0;
    let gaps = 0;
    const counters = await fetch(ctx, { segment: seg.path, threads: spec.threads, parse: inline?.parse }, { onProgress: (e) => {
      if (e.type !== 'page') return;
      const now = performance.now();
      if (!firstPage) firstPage = now;
      const host = new URL(e.url).host;
      const last = lastByHost.get(host);
      if (last !== undefined) {
        gapSum += now - last;
        gaps++;
      }
      lastByHost.set(host, now);
    } });
    if (inline) {
      const s2 = await ctx.storage.openSegment(seg.path);
      Object.assign(counters, await inline.finish(s2, { complete: true }));
      await s2.close();
    }
    loop.disable();
    const secs = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    const cpu = process.cpuUsage(cpu0);
    const pages = counters.success ?? 0;
    const rate = pages / secs;
    const cpuPer1000 = ((cpu.user + cpu.system) / 1e6) / (pages / 1000);
    const server = await web.stats();
    console.log(`${spec.name}`);
    console.log(`  pages fetched:      ${pages} of ${ordered.length} in ${secs.toFixed(2)} s`);
    console.log(`  start-up:           ${((firstPage - t0) / 1000).toFixed(2)} s to the first page (plugin load, robots.txt)`);
    console.log(`  pages/s:            ${rate.toFixed(1)}${spec.ceiling ? ` (ceiling ${spec.ceiling}, ${((rate / spec.ceiling) * 100).toFixed(0)}%)` : ''} target >= ${spec.target}: ${rate >= spec.target ? 'MET' : 'MISSED'}`);
    console.log(`  per-host interval:  ${(gapSum / Math.max(1, gaps)).toFixed(1)} ms mean between pages of one host (latency ${spec.latencyMs} ms)`);
    console.log(`  CPU s / 1000 pages: ${cpuPer1000.toFixed(2)} (issue target <= 2)`);
    console.log(`  peak RSS:           ${(peakRss / 1048576).toFixed(0)} MB (issue target <= 300)`);
    console.log(`  event-loop p99:     ${(loop.percentile(99) / 1e6).toFixed(1)} ms (issue target <= 50)`);
    console.log(`  server requests:    ${server.requests}; counters ${JSON.stringify(counters)}`);
    const parseFailed = Number((counters as Record<string, unknown>)['ParserStatus.failed'] ?? 0);
    if (inline && parseFailed > 0) console.log(`  FAILED: ${parseFailed} inline parses failed; this figure is not fetch + parse`);
  } finally {
    await ctx.close();
    await web.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const env = (name: string, dflt: number) => Number(process.env[name] ?? dflt);
await run({ name: 'fetch, 100 hosts x 1 connection, 200 ms latency', hosts: 100, pagesPerHost: env('BENCH_PAGES_PER_HOST', 20), latencyMs: 200, perQueue: 1, threads: 100, ceiling: 500, target: 400 });
await run({ name: 'fetch, 100 hosts x 2 connections, zero latency', hosts: 100, pagesPerHost: env('BENCH_PAGES_PER_HOST', 50), latencyMs: 0, perQueue: 2, threads: 200, target: 800 });
await run({ name: 'fetch + inline parse, 100 hosts x 2 connections, zero latency', hosts: 100, pagesPerHost: env('BENCH_PAGES_PER_HOST', 50), latencyMs: 0, perQueue: 2, threads: 200, target: 500, inlineParse: true });
