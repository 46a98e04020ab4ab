/**
 * `npm run demo`: the project's main job end to end on the embedded defaults. Starts the local test web
 * on loopback, crawls it two rounds into ./crawl (inject, generate, fetch, parse, updatedb,
 * invertlinks, dedup, index), searches the embedded index and prints the hits. Exits non-zero when the
 * search finds nothing.
 */
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { createNutch } from '../sdk/create-nutch.js';
import { createConsoleLogger } from '../core/log.js';
import { startTestWeb } from '../tests/web/test-web.js';
import { formatScore, renderSnippet } from '../sdk/cli/search-format.js';

const crawlDir = resolve(process.env.NUTCH_DEMO_DIR ?? 'crawl');
// Every test-web page holds the same filler words, so a filler word ranks all pages alike (BM25's IDF is
// ~0 for a term found in most documents); a page number in titles and link anchors ranks them apart.
const query = process.argv[2] ?? 'page 12';

const web = await startTestWeb({ hosts: 8, pagesPerHost: 40, linksPerPage: 12, robots: true, seed: 7 });
console.log(`Test web: ${web.hosts.length} hosts on loopback (${web.hosts[0]} …), ${web.allUrls().length} pages`);
rmSync(crawlDir, { recursive: true, force: true });

const nutch = await createNutch({
  crawlDir,
  logger: createConsoleLogger('warn'),
  config: {
    'http.agent.name': 'nutch-ts-demo',
    'fetcher.server.delay': 0.05,
    'fetcher.threads.fetch': 16,
    'db.ignore.external.links': false,
  },
});
let exitCode = 0;
try {
  const started = Date.now();
  const run = nutch.crawl({ seeds: web.seeds, rounds: 2, topN: 1000, index: true });
  for await (const e of run) {
    if (e.type === 'stage-end' && e.stage !== 'crawl') {
      const shown = Object.entries(e.counters).filter(([, v]) => v !== 0).slice(0, 8).map(([k, v]) => `${k}=${v}`).join(' ');
      console.log(`  ${e.round !== undefined ? `round ${e.round} ` : ''}${e.stage.padEnd(11)} ${(e.ms / 1000).toFixed(2)} s  ${shown}`);
    }
  }
  const summary = await run.result;
  console.log(`Crawled ${summary['fetch.success'] ?? 0} pages in ${((Date.now() - started) / 1000).toFixed(1)} s into ${crawlDir}`);
  const hits = await nutch.search(query, { limit: 5 });
  console.log(`\nSearch "${query}": ${hits.length} hit(s)`);
  // as `nutch search` prints hits: highlights bold on a terminal and plain otherwise, readable scores
  const tty = process.stdout.isTTY === true;
  for (const [i, h] of hits.entries()) {
    console.log(`  ${i + 1}. ${h.title || '(no title)'}  (score ${formatScore(h.score)})\n     ${h.url}\n     ${renderSnippet(h.snippet, tty)}`);
  }
  if (hits.length === 0) {
    console.error('demo: the search printed no hit');
    exitCode = 1;
  }
} finally {
  await nutch.close();
  await web.close();
}
process.exit(exitCode);
