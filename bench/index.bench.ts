/**
 * Index throughput: N parsed pages (default 20,000; BENCH_DOCS=50000 for the floor) of ~4 KB
 * text with titles and inlinks, written through the storage engine, then the whole index stage —
 * CrawlDb/LinkDb/segment join, index-basic + index-anchor + index-more, indexer-sqlite (FTS5) and the
 * commit. Reports documents/s against the DESIGN §8 budget (20,000 in <= 5 s) and the issue floor
 * (>= 2,000 documents/s), then search latency (p50/p95 over 200 queries) on that index.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext } from '../core/crawl/context.js';
import { silentLogger } from '../core/log.js';
import { index } from '../core/crawl/index/index.js';
import { search } from '../core/crawl/search/search.js';
import { CrawlStatus, createCrawlDatum } from '../core/model/crawl-datum.js';
import { createParseData } from '../core/model/parse.js';

const N = Number(process.env.BENCH_DOCS ?? 20_000);
const WORDS = 'crawler fetch segment robots queue parse index link anchor host politeness delay content metadata signature score outlink generator injector updater dedup solr lucene hadoop tika html'.split(' ');

function text(i: number): string {
  const out: string[] = [];
  for (let k = 0; k < 600; k++) out.push(WORDS[(i * 31 + k * 7 + (k >> 3)) % WORDS.length]!);
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
      await lup.put(ids.map((i) => ({ url: url(i), value: { inlinks: [1, 2, 3].map((d) => ({ fromUrl: url(i + d), anchor: `${WORDS[(i + d) % WORDS.length]} page ${i}` })) } })));
      await fetch.append(ids.map((i) => ({ url: url(i), value: createCrawlDatum({ status: CrawlStatus.STATUS_FETCH_SUCCESS }) })));
      await data.append(ids.map((i) => ({ url: url(i), value: createParseData({ title: `Page ${i} about ${WORDS[i % WORDS.length]}`, contentMeta: { 'Content-Type': ['text/html'], 'Content-Length': ['12345'] } }) })));
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
    const counters = await index(ctx, { crawlDb: join(crawl, 'crawldb'), linkDb: join(crawl, 'linkdb'), segments: [seg.path] });
    const secs = (performance.now() - start) / 1000;
    const rate = N / secs;
    console.log(`index: ${counters['indexed (add/update)']} documents in ${secs.toFixed(2)} s = ${Math.round(rate)} docs/s`);
    console.log(`  budget (DESIGN §8): 20,000 docs <= 5 s -> projected ${(20_000 / rate).toFixed(2)} s ${20_000 / rate <= 5 ? 'OK' : 'OVER'}`);
    console.log(`  issue floor: >= 2,000 docs/s -> ${rate >= 2000 ? 'OK' : 'BELOW'}`);

    const times: number[] = [];
    for (let q = 0; q < 200; q++) {
      const query = q % 2 ? `uniqueterm${(q * 97) % N}` : `${WORDS[q % WORDS.length]} ${WORDS[(q + 3) % WORDS.length]}`;
      const t0 = performance.now();
      await search(ctx, { crawlDir: crawl, query, limit: 10 });
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const p = (x: number) => times[Math.floor(times.length * x)]!.toFixed(1);
    console.log(`search (open + query + close, limit 10): p50 ${p(0.5)} ms, p95 ${p(0.95)} ms (issue: p50 <= 20 ms)`);
  } finally {
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
