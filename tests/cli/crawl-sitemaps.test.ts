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

test('crawl --hostdbupdate, --hostdbgenerate and --sitemaps-from-hostdb say they are not available', async (t) => {
  const cwd = tempDir(t);
  for (const argv of [['--hostdbupdate'], ['--hostdbgenerate'], ['--sitemaps-from-hostdb', 'once']]) {
    const r = await spawnNutch(['crawl', ...argv, 'crawl', '1'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
    assert.equal(r.code, 2, argv[0]);
    assert.match(r.stderr, /not available in nutch-ts: the HostDb/);
  }
});
