/** mergedb, mergesegs and mergelinkdb through the real CLI, on two real crawls of the test web. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawnNutch } from '../helpers/cli.js';
import { crawlInto } from '../helpers/crawled-web.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir } from '../helpers/temp-dir.js';
import { startTestWeb, type TestWeb } from '../web/test-web.js';
import type { CrawlDatum } from '../../core/model/crawl-datum.js';

let web: TestWeb;
let cwd: string;

before(async () => {
  web = await startTestWeb({ hosts: 3, pagesPerHost: 6, linksPerPage: 3, externalLinkRatio: 0, seed: 11 });
  cwd = tempDir();
  // crawl A: host 0 only; crawl B, later: hosts 0 and 2, so host 0's home page is in both, newer in B
  await crawlInto(cwd, [web.seeds[0]!], { crawlDir: 'a', rounds: 1 });
  await crawlInto(cwd, [web.seeds[0]!, web.seeds[2]!], { crawlDir: 'b', rounds: 2 });
});

after(async () => {
  await web.close();
  rmSync(cwd, { recursive: true, force: true });
});

const nutch = (argv: string[]) => spawnNutch(argv, { cwd, env: { NUTCH_CONF_DIR: cwd } });

async function readCrawlDb(t: Parameters<typeof fixtureContext>[0], path: string): Promise<Map<string, CrawlDatum>> {
  const ctx = fixtureContext(t, { cwd });
  const db = await ctx.storage.openCrawlDb(join(cwd, path));
  const out = new Map<string, CrawlDatum>();
  try {
    for await (const { url, value } of db.scan()) out.set(url, value);
  } finally {
    await db.close();
  }
  return out;
}

test('mergedb: the union of two crawls, the newer datum winning for a URL in both', async (t) => {
  const a = await readCrawlDb(t, 'a/crawldb');
  const b = await readCrawlDb(t, 'b/crawldb');
  const r = await nutch(['mergedb', 'merged/crawldb', 'a/crawldb', 'b/crawldb']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^CrawlDbMerger:/);
  const merged = await readCrawlDb(t, 'merged/crawldb');
  assert.deepEqual([...merged.keys()].sort(), [...new Set([...a.keys(), ...b.keys()])].sort());
  const home = web.seeds[0]!;
  assert.ok(a.has(home) && b.has(home));
  assert.ok(b.get(home)!.fetchTime > a.get(home)!.fetchTime);
  assert.deepEqual(merged.get(home), b.get(home));
  for (const [url, d] of a) if (!b.has(url)) assert.deepEqual(merged.get(url), d, url);

  // -filter drops what the URL filters reject; the output is replaced, not added to
  const rules = join(cwd, 'regex-urlfilter.txt');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(rules, `-^http://${web.hosts[2]!.replace(/\./g, '\\.')}/\n+.\n`);
  const f = await nutch(['mergedb', 'merged/crawldb', 'a/crawldb', 'b/crawldb', '-filter', '-D', `urlfilter.regex.file=${rules}`]);
  assert.equal(f.code, 0, f.stderr);
  const filtered = await readCrawlDb(t, 'merged/crawldb');
  assert.ok(filtered.size > 0);
  for (const url of filtered.keys()) assert.ok(!url.includes(web.hosts[2]!), url);
  assert.equal(filtered.size, [...merged.keys()].filter((u) => !u.includes(web.hosts[2]!)).length);
});

test('mergedb with a missing input names it', async () => {
  const r = await nutch(['mergedb', 'out', 'a/crawldb', 'nowhere/crawldb']);
  assert.equal(r.code, 3);
  assert.match(r.stderr, /NUTCH_STORAGE_NOT_FOUND: CrawlDb .*nowhere\/crawldb does not exist/);
});
