/**
 * `nutch sitemap` through the real CLI against the test web's sitemaps: a sitemap index (listed in
 * robots.txt) naming a plain XML sitemap and a gzipped one; -sitemapUrls with sitemap URLs and host names.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { spawnNutch } from '../helpers/cli.js';
import { startWeb } from '../helpers/crawled-web.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';
import type { CrawlDatum } from '../../core/model/crawl-datum.js';
import type { TestWeb } from '../web/test-web.js';

const INTERVALS: Record<string, number> = { hourly: 3600, daily: 86400, weekly: 604800, monthly: 2592000, yearly: 31536000 };

async function crawlDb(t: Parameters<typeof fixtureContext>[0], cwd: string): Promise<Map<string, CrawlDatum>> {
  const ctx = fixtureContext(t, { cwd });
  const db = await ctx.storage.openCrawlDb(join(cwd, 'crawl', 'crawldb'));
  const out = new Map<string, CrawlDatum>();
  for await (const { url, value } of db.scan()) out.set(url, value);
  await db.close();
  return out;
}

function setup(t: Parameters<typeof tempDir>[0], web: TestWeb, seeds: string[]) {
  const cwd = tempDir(t);
  writeFile(join(cwd, 'nutch-site.json'), { 'http.agent.name': 'sitemap-test' });
  writeFile(join(cwd, 'urls', 'seeds.txt'), seeds.join('\n') + '\n');
  // Nutch's default regex-urlfilter.txt rejects *.gz, the gzipped sitemap's name included (as in Nutch)
  writeFile(join(cwd, 'regex-urlfilter.txt'), '-/private/\n+.\n');
  const run = (argv: string[]) => spawnNutch(argv, { cwd, env: { NUTCH_CONF_DIR: cwd } });
  return { cwd, run };
}

test('sitemap reads the robots.txt sitemaps of every host in the CrawlDb: index, plain and gzipped, with priority, changefreq, lastmod', async (t) => {
  const web = await startWeb(t, { hosts: 2, pagesPerHost: 7, linksPerPage: 1, robots: true, sitemaps: true, seed: 4 });
  const { cwd, run } = setup(t, web, web.seeds);
  const inj = await run(['inject', 'crawl/crawldb', 'urls']);
  assert.equal(inj.code, 0, inj.stderr);

  const r = await run(['sitemap', 'crawl/crawldb']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^SitemapProcessor:/);
  assert.match(r.stdout, /new_sitemap_entries=12\n/);
  assert.match(r.stdout, /existing_sitemap_entries=2\n/);
  assert.match(r.stdout, /sitemap_indexes=2\n/);
  assert.match(r.stdout, /sitemaps=4\n/);
  assert.match(r.stdout, /invalid_urls=2\n/, 'the other host\'s URL in each plain sitemap is rejected by strict parsing');
  for (let h = 0; h < 2; h++) {
    assert.equal(web.requestsFor(web.url(h, '/sitemap_index.xml')).length, 1);
    assert.equal(web.requestsFor(web.url(h, '/sitemap-odd.xml.gz')).length, 1);
  }

  const db = await crawlDb(t, cwd);
  assert.equal(db.size, 14);
  for (let h = 0; h < 2; h++) {
    for (let p = 1; p < 7; p++) {
      const e = web.model.sitemapEntry(p);
      const d = db.get(web.url(h, e.path));
      assert.ok(d, `${e.path} of host ${h} came from a sitemap`);
      assert.equal(d.status, 0x01, 'db_unfetched');
      assert.equal(d.score, e.priority);
      assert.equal(d.fetchInterval, INTERVALS[e.changefreq]);
      assert.equal(d.modifiedTime, Date.parse(e.lastmod));
    }
    // the injected home page is kept as injected (sitemap.url.overwrite.existing is false)
    assert.equal(db.get(web.seeds[h]!)!.score, 1);
  }
  for (const url of db.keys()) assert.doesNotMatch(url, /foreign-from-sitemap/);
});

test('sitemap -sitemapUrls takes sitemap URLs and host names; -noStrict keeps URLs of other hosts; overwrite.existing updates known URLs', async (t) => {
  const web = await startWeb(t, { hosts: 2, pagesPerHost: 5, linksPerPage: 1, sitemaps: true, seed: 6 });
  const { cwd, run } = setup(t, web, [web.url(0, '/page/2.html')]);
  assert.equal((await run(['inject', 'crawl/crawldb', 'urls'])).code, 0);
  writeFile(join(cwd, 'sitemaps', 'list.txt'), `# sitemap URLs or host names\n${web.url(0, '/sitemap.xml')}\n${web.hosts[1]}\n`);

  const r = await run(['sitemap', 'crawl/crawldb', '-sitemapUrls', 'sitemaps', '-noStrict', '-threads', '2', '-D', 'sitemap.url.overwrite.existing=true']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /sitemap_seeds=1\n/);
  assert.match(r.stdout, /sitemaps_from_hostname=1\n/);
  const db = await crawlDb(t, cwd);
  // host 0: its plain sitemap only (even pages) and host 1's foreign URL; host 1: everything through its index
  for (const p of [0, 4]) assert.ok(db.has(web.url(0, web.model.pagePath(p))));
  assert.ok(!db.has(web.url(0, '/page/1.html')));
  assert.ok(db.has(web.url(1, '/foreign-from-sitemap.html')), '-noStrict keeps the other host\'s URL');
  for (let p = 0; p < 5; p++) assert.ok(db.has(web.url(1, web.model.pagePath(p))));
  const page2 = db.get(web.url(0, '/page/2.html'))!;
  assert.equal(page2.score, web.model.sitemapEntry(2).priority, 'overwrite.existing copied the priority onto the injected URL');
});

test('sitemap counts a sitemap that fails to fetch and leaves the CrawlDb as it was', async (t) => {
  const web = await startWeb(t, { hosts: 1, pagesPerHost: 3, linksPerPage: 1, seed: 2 });
  const { cwd, run } = setup(t, web, web.seeds);
  assert.equal((await run(['inject', 'crawl/crawldb', 'urls'])).code, 0);
  const r = await run(['sitemap', 'crawl/crawldb']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /failed_fetches=1\n/, 'no robots.txt sitemap, /sitemap.xml is a 404');
  assert.match(r.stdout, /new_sitemap_entries=0\n/);
  assert.equal((await crawlDb(t, cwd)).size, 1);
});
