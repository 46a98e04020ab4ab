/** domainstats, protocolstats and crawlcomplete through the real CLI on a real crawl of the test web. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnNutch } from '../helpers/cli.js';
import { crawledWeb } from '../helpers/crawled-web.js';
import { fixtureContext } from '../helpers/context.js';
import type { CrawlDatum } from '../../core/model/crawl-datum.js';

function readCounts(file: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const [n, key] = line.split('\t');
    out.set(key!, Number(n));
  }
  return out;
}

test('domainstats, protocolstats and crawlcomplete count the CrawlDb as it is', async (t) => {
  const { web, cwd } = await crawledWeb(t, { hosts: 3, pagesPerHost: 8, linksPerPage: 3, notFoundRatio: 0.2, redirects: 0.15, seed: 21 }, { rounds: 2 });
  const ctx = fixtureContext(t, { cwd });
  const db = await ctx.storage.openCrawlDb(join(cwd, 'crawl', 'crawldb'));
  const entries: [string, CrawlDatum][] = [];
  for await (const { url, value } of db.scan()) entries.push([url, value]);
  await db.close();
  const host = (u: string) => new URL(u).hostname;
  const fetched = (d: CrawlDatum) => d.status === 0x02 || d.status === 0x06;
  const nutch = (argv: string[]) => spawnNutch(argv, { cwd, env: { NUTCH_CONF_DIR: cwd } });

  // domainstats: fetched URLs per host, and per top-level "domain" (the last label of an IP)
  const ds = await nutch(['domainstats', 'crawl/crawldb', 'out-host', 'host']);
  assert.equal(ds.code, 0, ds.stderr);
  const byHost = new Map<string, number>();
  for (const [u, d] of entries) if (fetched(d)) byHost.set(host(u), (byHost.get(host(u)) ?? 0) + 1);
  assert.deepEqual(readCounts(join(cwd, 'out-host', 'part-r-00000')), byHost);
  assert.equal(byHost.size, 3);
  assert.match(ds.stdout, new RegExp(`FETCHED=${[...byHost.values()].reduce((a, b) => a + b)}\\n`));
  assert.match(ds.stdout, new RegExp(`NOT_FETCHED=${entries.filter(([, d]) => !fetched(d)).length}\\n`));
  const again = await nutch(['domainstats', 'crawl/crawldb', 'out-host', 'host']);
  assert.equal(again.code, 2, 'an existing output directory is not overwritten');
  assert.match(again.stderr, /out-host already exists/);

  // protocolstats: the HTTP code of each entry's last fetch; the test web served 200s, 404s and redirects
  const ps = await nutch(['protocolstats', 'crawl/crawldb', 'out-proto']);
  assert.equal(ps.code, 0, ps.stderr);
  const codes = readCounts(join(cwd, 'out-proto', 'part-r-00000'));
  let served200 = 0;
  let served404 = 0;
  for (const reqs of web.requestLog.values()) for (const r of reqs) if (r.path !== '/robots.txt') { if (r.status === 200) served200++; if (r.status === 404) served404++; }
  assert.equal(codes.get('200'), served200, 'one 200 per page the server answered 200');
  assert.equal(codes.get('404') ?? 0, served404);
  assert.ok(served200 > 0);
  assert.ok((codes.get('301') ?? 0) + (codes.get('302') ?? 0) > 0, 'redirects counted');
  assert.equal([...codes.values()].reduce((a, b) => a + b), entries.length);
  assert.equal(codes.get('UNFETCHED'), entries.filter(([, d]) => !d.metaData['nutch.protocol.code']).length);

  // crawlcomplete: fetched / unfetched per host
  const cc = await nutch(['crawlcomplete', '-inputDirs', 'crawl/crawldb', '-outputDir', 'out-complete', '-mode', 'host']);
  assert.equal(cc.code, 0, cc.stderr);
  const expected = new Map<string, number>();
  for (const [u, d] of entries) {
    const k = `${host(u)} ${fetched(d) ? 'FETCHED' : 'UNFETCHED'}`;
    expected.set(k, (expected.get(k) ?? 0) + 1);
  }
  assert.deepEqual(readCounts(join(cwd, 'out-complete', 'part-r-00000')), expected);

  const bad = await nutch(['crawlcomplete', '-inputDirs', 'crawl/crawldb', '-outputDir', 'x', '-mode', 'planet']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /Unknown mode "planet"/);
});
