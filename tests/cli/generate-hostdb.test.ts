/**
 * generate -hostdb through the real CLI on a crawl of the test web: generate.max.count.expr limits each
 * host by its HostDatum (scores from updatehostdb -tophosts), generate.fetch.delay.expr lands in each
 * generated CrawlDatum; a missing HostDb and an expression that does not parse are refused up front.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { spawnNutch } from '../helpers/cli.js';
import { crawledWeb } from '../helpers/crawled-web.js';
import { fixtureContext } from '../helpers/context.js';
import { writeFile } from '../helpers/temp-dir.js';
import { DatumMeta } from '../../core/model/crawl-datum.js';

test('generate -hostdb: per-host maximum and fetch delay from expressions over the HostDb; bad input refused before anything is written', async (t) => {
  const { web, cwd } = await crawledWeb(t, { hosts: 2, pagesPerHost: 8, linksPerPage: 4, seed: 7 }, { rounds: 1 });
  const env = { NUTCH_CONF_DIR: cwd };
  writeFile(join(cwd, 'nutch-site.json'), { 'http.agent.name': 'hostdb-generate-test' });
  const [hostA, hostB] = web.seeds.map((s) => new URL(s).hostname) as [string, string];
  writeFile(join(cwd, 'tophosts.txt'), `${hostA}\t2.5\n${hostB}\t0\n`);
  const u = await spawnNutch(['updatehostdb', '-hostdb', 'crawl/hostdb', '-crawldb', 'crawl/crawldb', '-tophosts', 'tophosts.txt'], { cwd, env });
  assert.equal(u.code, 0, u.stderr);

  // refused before the CrawlDb is touched: a missing HostDb, an expression that does not parse
  const missing = await spawnNutch(['generate', 'crawl/crawldb', 'crawl/segments', '-hostdb', 'crawl/nohostdb'], { cwd, env });
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /HostDb .*crawl\/nohostdb does not exist \(generate -hostdb\)/);
  const bad = await spawnNutch(['generate', 'crawl/crawldb', 'crawl/segments', '-hostdb', 'crawl/hostdb', '-D', 'generate.fetch.delay.expr=score >> 1'], { cwd, env });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /generate\.fetch\.delay\.expr "score >> 1": expected a number, text, variable or "\(", found ">" at position 8/);
  const ctx = fixtureContext(t, { cwd });
  const segmentsDir = join(cwd, 'crawl', 'segments');
  const before = (await ctx.storage.listSegments(segmentsDir)).length;

  const g = await spawnNutch(['generate', 'crawl/crawldb', 'crawl/segments', '-hostdb', 'crawl/hostdb',
    '-D', 'generate.max.count.expr=score > 1 ? 1 : 3', '-D', 'generate.fetch.delay.expr=score > 1 ? 4000 : 250 + ok'], { cwd, env });
  assert.equal(g.code, 0, g.stderr);
  const segment = /Generator: segment: (.+)$/m.exec(g.stdout)![1]!;
  assert.equal((await ctx.storage.listSegments(segmentsDir)).length, before + 1, 'the refused runs made no segment');

  const seg = await ctx.storage.openSegment(segment);
  const perHost = new Map<string, number>();
  const delays = new Map<string, Set<string>>();
  for await (const { url, value } of seg.read('crawl_generate')) {
    const h = new URL(url).hostname;
    perHost.set(h, (perHost.get(h) ?? 0) + 1);
    const d = delays.get(h) ?? new Set();
    d.add(value.metaData[DatumMeta.VARIABLE_FETCH_DELAY_KEY]?.[0] ?? 'none');
    delays.set(h, d);
  }
  await seg.close();
  const db = await ctx.storage.openCrawlDb(join(cwd, 'crawl/crawldb'));
  const unfetchedB = await (async () => {
    let n = 0;
    for await (const { url, value } of db.scan()) if (new URL(url).hostname === hostB && value.status === 1) n++;
    return n;
  })();
  await db.close();
  assert.equal(perHost.get(hostA), 1, `${hostA} (score 2.5) limited to 1`);
  assert.equal(perHost.get(hostB), Math.min(3, unfetchedB), `${hostB} (score 0) limited to 3`);
  assert.deepEqual([...delays.get(hostA)!], ['4000']);
  assert.deepEqual([...delays.get(hostB)!], ['251'], 'ok = 1 page fetched in round 1');
});
