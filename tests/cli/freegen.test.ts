/** `nutch freegen` from a text file of test-web URLs, then `nutch fetch` of the segment it made, through the real CLI. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { spawnNutch } from '../helpers/cli.js';
import { startWeb } from '../helpers/crawled-web.js';
import { fixtureContext } from '../helpers/context.js';
import { tempDir, writeFile } from '../helpers/temp-dir.js';

test('freegen writes a fetchable segment of the listed URLs, each once, filtered and partitioned', async (t) => {
  const web = await startWeb(t, { hosts: 2, pagesPerHost: 4, linksPerPage: 2, seed: 5 });
  const cwd = tempDir(t);
  writeFile(join(cwd, 'nutch-site.json'), { 'http.agent.name': 'freegen-test', 'fetcher.server.delay': 0.01 });
  const wanted = [web.url(0, '/'), web.url(0, '/page/2.html'), web.url(1, '/'), web.url(1, '/page/3.html')];
  const rejected = web.url(1, '/page/1.html');
  writeFile(join(cwd, 'urls', 'list.txt'), [
    `${wanted[0]}\tnutch.score=2.5`, wanted[1], '# a comment', wanted[2], wanted[0], 'not a url', wanted[3], rejected, '',
  ].join('\n'));
  writeFile(join(cwd, 'regex-urlfilter.txt'), `-/page/1\\.html$\n+.\n`);
  const env = { NUTCH_CONF_DIR: cwd };

  const r = await spawnNutch(['freegen', 'urls', 'crawl/segments', '-filter', '-numFetchers', '2'], { cwd, env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /urls_generated=4/);
  assert.match(r.stdout, /urls_duplicate=1/);
  assert.match(r.stdout, /urls_filtered=1/);
  assert.match(r.stdout, /urls_malformed=1/);
  assert.match(r.stderr, /urls\/list\.txt:6: malformed URL not a url/);
  const segment = /Generated segment: (.+)$/m.exec(r.stdout)![1]!;

  const ctx = fixtureContext(t, { cwd });
  const seg = await ctx.storage.openSegment(segment);
  assert.equal(await seg.partitionCount(), 2);
  const generated = new Map<string, number>();
  for await (const { url, value } of seg.read('crawl_generate')) generated.set(url, value.score);
  await seg.close();
  assert.deepEqual([...generated.keys()].sort(), [...wanted].sort());
  assert.equal(generated.get(wanted[0]!), 2.5);

  const f = await spawnNutch(['fetch', segment], { cwd, env });
  assert.equal(f.code, 0, f.stderr);
  for (const u of wanted) assert.equal(web.requestsFor(u).length, 1, `${u} fetched once`);
  assert.equal(web.requestsFor(rejected).length, 0);
});

test('freegen with a missing input names it', async (t) => {
  const cwd = tempDir(t);
  const r = await spawnNutch(['freegen', 'nowhere', 'segments'], { cwd, env: { NUTCH_CONF_DIR: cwd } });
  assert.equal(r.code, 3);
  assert.match(r.stderr, /nowhere does not exist/);
});
