/** bin/crawl's -sm <sitemap_dir> through the real CLI: the sitemaps' URLs are in the CrawlDb before round 1 and fetched in it. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { spawnNutch } from '../helpers/cli.js';
import { startWeb } from '../helpers/crawled-web.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

test('crawl -sm reads the sitemaps of the listed hosts before round 1, whose URLs round 1 fetches', async (t) => {
  const web = await startWeb(t, { hosts: 2, pagesPerHost: 5, linksPerPage: 1, externalLinkRatio: 0, sitemaps: true, seed: 12 });
  const cwd = tempDir(t);
  writeFile(join(cwd, 'nutch-site.json'), { 'http.agent.name': 'crawl-sm-test', 'fetcher.server.delay': 0.01 });
  writeFile(join(cwd, 'regex-urlfilter.txt'), '+.\n');
  writeFile(join(cwd, 'urls', 'seeds.txt'), `${web.seeds[0]}\n`);
  writeFile(join(cwd, 'sitemaps', 'hosts.txt'), `${web.hosts[1]}\n`);
  const r = await spawnNutch(['crawl', '-s', 'urls', '-sm', 'sitemaps', 'crawl', '1'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.equal(r.code, 0, r.stderr);
  // host 1 is reachable from no seed and no link: only its sitemaps name its pages
  for (let p = 0; p < 5; p++) assert.equal(web.requestsFor(web.url(1, web.model.pagePath(p))).length, 1, `host 1 page ${p} fetched in round 1`);
  assert.equal(web.requestsFor(web.url(1, '/sitemap_index.xml')).length, 1);
});

test('crawl --hostdbupdate --hostdbgenerate --sitemaps-from-hostdb: the HostDb built each round limits generate and names the hosts whose sitemaps are read; sitemap -hostdb', async (t) => {
  const web = await startWeb(t, { hosts: 2, pagesPerHost: 6, linksPerPage: 1, externalLinkRatio: 0, sitemaps: true, seed: 21 });
  const cwd = tempDir(t);
  const env = { NUTCH_CONF_DIR: cwd };
  writeFile(join(cwd, 'nutch-site.json'), { 'http.agent.name': 'crawl-hostdb-test', 'fetcher.server.delay': 0.01, 'generate.max.count.expr': 'fetched > 0 ? 2 : 100' });
  writeFile(join(cwd, 'regex-urlfilter.txt'), '+.\n');
  writeFile(join(cwd, 'urls', 'seeds.txt'), web.seeds.join('\n') + '\n');

  const bad = await spawnNutch(['crawl', '--sitemaps-from-hostdb', 'sometimes', 'crawl', '1'], { cwd, env });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--sitemaps-from-hostdb must be never, always or once/);

  const r = await spawnNutch(['crawl', '-s', 'urls', '--hostdbupdate', '--hostdbgenerate', '--sitemaps-from-hostdb', 'always', 'crawl', '2'], { cwd, env });
  assert.equal(r.code, 0, r.stderr);
  const pages = (h: number) => (web.requestLog.get(web.hosts[h]!) ?? []).filter((q) => !/^\/(robots\.txt|sitemap)/.test(q.path)).length;
  for (let h = 0; h < 2; h++) {
    // round 1: the home page (HostDb: nothing fetched, limit 100); round 2: fetched = 1, so at most 2,
    // although the sitemaps read at the start of round 2 put every page of the host in the CrawlDb
    assert.equal(pages(h), 3, `host ${h}: 1 page in round 1, 2 (generate.max.count.expr) in round 2`);
    // round 1 knew no home page (nothing fetched yet) and asked port 80; round 2 asked the home page's origin
    assert.equal(web.requestsFor(web.url(h, '/sitemap_index.xml')).length, 1, `host ${h}: sitemaps read in round 2`);
  }
  const names = await spawnNutch(['readhostdb', 'crawl/hostdb', 'hosts', '-dumpHostnames'], { cwd, env });
  assert.equal(names.code, 0, names.stderr);

  const sm = await spawnNutch(['sitemap', 'crawl/crawldb', '-hostdb', 'crawl/hostdb'], { cwd, env });
  assert.equal(sm.code, 0, sm.stderr);
  for (let h = 0; h < 2; h++) assert.equal(web.requestsFor(web.url(h, '/sitemap_index.xml')).length, 2, `host ${h}: sitemap -hostdb read its sitemaps`);
  const missing = await spawnNutch(['sitemap', 'crawl/crawldb', '-hostdb', 'crawl/nohostdb'], { cwd, env });
  assert.equal(missing.code, 3);
  assert.match(missing.stderr, /HostDb .*crawl\/nohostdb does not exist \(sitemap -hostdb\)/);
});
