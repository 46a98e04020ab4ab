/**
 * The judged queries of the real-web bench: each query names the page a user expects (site key +
 * path); the query is searched in nutch-ts's index of the crawl and scored by the rank of that page.
 * hit@1 and hit@10 = share of queries whose page is first / in the top 10; MRR = mean of 1/rank
 * (0 when the page is not in the top 10).
 */
import { createNutch } from '../../sdk/index.js';

export interface JudgedQuery { q: string; site: string; path: string }

export async function judge(crawlDir: string, queries: JudgedQuery[], sites: { key: string; base: string }[]): Promise<{ n: number; hit1: number; hit10: number; mrr: number; misses: string[]; ms: { p50: number; max: number } }> {
  const base = new Map(sites.map((s) => [s.key, s.base]));
  const siteOf = (url: string) => { const s = sites.find((x) => url.startsWith(x.base + '/')); return s ? s.key + url.slice(s.base.length) : url; };
  const nutch = await createNutch({ crawlDir, config: { 'http.agent.name': 'nutch-realweb' } });
  let hit1 = 0;
  let hit10 = 0;
  let rr = 0;
  const misses: string[] = [];
  const times: number[] = [];
  try {
    for (const { q, site, path } of queries) {
      const want = base.get(site) + path;
      const t0 = performance.now();
      const hits = await nutch.search(q, { limit: 10 });
      times.push(performance.now() - t0);
      const rank = hits.findIndex((h) => h.url === want) + 1;
      if (rank === 1) hit1++;
      if (rank >= 1) { hit10++; rr += 1 / rank; }
      if (rank !== 1) misses.push(`${JSON.stringify(q)} → ${site}${path}: ${rank ? `rank ${rank}` : 'not in top 10'}; first ${hits[0] ? siteOf(hits[0].url) : 'none'}`);
    }
  } finally {
    await nutch.close();
  }
  const n = queries.length;
  times.sort((a, b) => a - b);
  return { n, hit1: hit1 / n, hit10: hit10 / n, mrr: rr / n, misses, ms: { p50: times[Math.floor(n / 2)] ?? 0, max: times[n - 1] ?? 0 } };
}

// `node --import tsx bench/realweb/judge.ts <crawl dir> [port]`: judge an index a kept bench run left
// (BENCH_KEEP=1), e.g. after re-indexing it with other ranking settings.
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { readFileSync } = await import('node:fs');
  const { SITES, siteAddress } = await import('./sites.js');
  const port = Number(process.argv[3] ?? 18480);
  const queries = JSON.parse(readFileSync(new URL('./queries.json', import.meta.url), 'utf8')) as JudgedQuery[];
  const j = await judge(process.argv[2]!, queries, SITES.map((s, i) => ({ key: s.key, base: `http://${siteAddress(i)}:${port}` })));
  console.log(`${j.n} judged queries: hit@1 ${j.hit1.toFixed(2)}, hit@10 ${j.hit10.toFixed(2)}, MRR ${j.mrr.toFixed(2)}; search ${j.ms.p50.toFixed(1)} ms p50, ${j.ms.max.toFixed(1)} ms max (load ${(await import('node:os')).loadavg()[0]!.toFixed(1)})`);
  for (const m of j.misses) console.log(`  ${m}`);
}
