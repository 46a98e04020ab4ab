/**
 * Index throughput: N parsed pages (default 20,000; BENCH_DOCS=50000 for the floor) of ~4 KB
 * text with titles and inlinks, written through the storage engine, then the whole index stage —
 * CrawlDb/LinkDb/segment join, index-basic + index-anchor + index-more, indexer-sqlite (FTS5) and the
 * commit. Reports documents/s against the DESIGN §8 budget (20,000 in <= 5 s) and the issue floor
 * (>= 2,000 documents/s), then search latency (p50/p95 over 200 queries: half one rare term, half two
 * Zipf-drawn words) on that index, with the index open and as `nutch search` opens it per query.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext } from '../core/crawl/context.js';
import { silentLogger } from '../core/log.js';
import { index } from '../core/crawl/index/index.js';
import { search } from '../core/crawl/search/search.js';
import { openIndexWriters } from '../core/crawl/index/open-index-writers.js';
import { CrawlStatus, createCrawlDatum } from '../core/model/crawl-datum.js';
import { createParseData } from '../core/model/parse.js';

const N = Number(process.env.BENCH_DOCS ?? 20_000);
/** A 20,000-word vocabulary drawn Zipf-like (a few very common words, a long tail), as in real text. */
const VOCABULARY = 20_000;
function word(n: number): string {
  let w = '';
  for (let x = n + 26; x > 0; x = Math.floor(x / 26)) w += String.fromCharCode(97 + (x % 26));
  return w;
}
function zipf(seed: number): number {
  const u = ((Math.sin(seed) * 10_000) % 1 + 1) % 1;
  return Math.floor(Math.exp(u * Math.log(VOCABULARY))) - 1;
}

function text(i: number): string {
  const out: string[] = [];
  for (let k = 0; k < 600; k++) out.push(word(zipf(i * 7919 + k * 104729 + 1)));
  out.push(`uniqueterm${i}`);
  return out.join(' ');
}

const url = (i: number) => `http://host${i % 100}.example/page/${i}.html`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'nutch-index-bench-'));
  writeFileSync(join(dir, 'index-writers.json'), JSON.stringify({ writers: [{ id: 'indexer_sqlite_1', extension: 'indexer-sqlite' }] }));
  const ctx = createContext({ cwd: dir, root: dir, env: { NUTCH_CONF_DIR: dir }, logger: silentLogger, defines: { 'plugin.includes': 'index-(basic|anchor|more)|indexer-sqlite', 'indexingfilter.order': 'index-basic index-anchor index-more' } });
  try {
    const crawl = join(dir, 'crawl');
    const setupStart = performance.now();
    const db = await ctx.storage.openCrawlDb(join(crawl, 'crawldb'));
    const up = await db.beginUpdate();
    const linkDb = await ctx.storage.openLinkDb(join(crawl, 'linkdb'));
    const lup = await linkDb.beginUpdate();
    const seg = await ctx.storage.createSegment(join(crawl, 'segments'));
    const fetch = await seg.openWriter('crawl_fetch', 0, { totalPartitions: 1 });
    const data = await seg.openWriter('parse_data', 0, { totalPartitions: 1 });
    const txt = await seg.openWriter('parse_text', 0, { totalPartitions: 1 });
    for (let b = 0; b < N; b += 1000) {
      const ids = Array.from({ length: Math.min(1000, N - b) }, (_, k) => b + k);
      await up.put(ids.map((i) => ({ url: url(i), value: createCrawlDatum({ status: CrawlStatus.STATUS_DB_FETCHED }) })));
      await lup.put(ids.map((i) => ({ url: url(i), value: { inlinks: [1, 2, 3].map((d) => ({ fromUrl: url(i + d), anchor: `${word(zipf(i + d))} page ${i}` })) } })));
      await fetch.append(ids.map((i) => ({ url: url(i), value: createCrawlDatum({ status: CrawlStatus.STATUS_FETCH_SUCCESS }) })));
      await data.append(ids.map((i) => ({ url: url(i), value: createParseData({ title: `Page ${i} about ${word(zipf(i * 3 + 1))}`, contentMeta: { 'Content-Type': ['text/html'], 'Content-Length': ['12345'] } }) })));
      await txt.append(ids.map((i) => ({ url: url(i), value: { text: text(i) } })));
    }
    for (const w of [fetch, data, txt]) {
      await w.finish();
      await w.close();
    }
    await up.commit();
    await lup.commit();
    await db.close();
    await linkDb.close();
    await seg.close();
    console.log(`setup: ${N} pages written in ${((performance.now() - setupStart) / 1000).toFixed(1)} s (not timed below)`);

    const start = performance.now();
    const cpu0 = process.cpuUsage();
    const counters = await index(ctx, { crawlDb: join(crawl, 'crawldb'), linkDb: join(crawl, 'linkdb'), segments: [seg.path] });
    const secs = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const cpuSecs = (cpu.user + cpu.system) / 1e6;
    const rate = N / secs;
    console.log(`index: ${counters['indexed (add/update)']} documents in ${secs.toFixed(2)} s = ${Math.round(rate)} docs/s (CPU ${cpuSecs.toFixed(2)} s = ${Math.round(N / cpuSecs)} docs per CPU-second; on a shared, loaded machine the CPU figure is the steadier one)`);
    console.log(`  budget (DESIGN §8): 20,000 docs <= 5 s -> projected ${(20_000 / rate).toFixed(2)} s ${20_000 / rate <= 5 ? 'OK' : 'OVER'}`);
    console.log(`  issue floor: >= 2,000 docs/s -> ${rate >= 2000 ? 'OK' : 'BELOW'}`);

    const queries = Array.from({ length: 200 }, (_, q) => (q % 2 ? `uniqueterm${(q * 97) % N}` : `${word(zipf(q * 31 + 7))} ${word(zipf(q * 17 + 3))}`));
    const pct = (times: number[], x: number) => [...times].sort((a, b) => a - b)[Math.floor(times.length * x)]!.toFixed(1);
    const writers = await openIndexWriters(ctx, { crawlDir: crawl });
    const searcher = writers.searcher()!;
    const warm: number[] = [];
    let hits = 0;
    for (const query of queries) {
      const t0 = performance.now();
      hits += (await searcher.search!(query, { limit: 10 })).length;
      warm.push(performance.now() - t0);
    }
    await writers.abort();
    console.log(`search on an open index (limit 10, ${hits} hits): p50 ${pct(warm, 0.5)} ms, p95 ${pct(warm, 0.95)} ms (issue: p50 <= 20 ms)`);
    const cold: number[] = [];
    for (const query of queries.slice(0, 50)) {
      const t0 = performance.now();
      await search(ctx, { crawlDir: crawl, query, limit: 10 });
      cold.push(performance.now() - t0);
    }
    console.log(`search() incl. opening and closing the writers (as nutch search): p50 ${pct(cold, 0.5)} ms, p95 ${pct(cold, 0.95)} ms`);
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
